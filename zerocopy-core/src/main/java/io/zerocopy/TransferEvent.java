package io.zerocopy;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One transfer in a JDK Flight Recorder recording: from its start to its end, with the strategy
 * that ran and why, the bytes moved, how long it moved nothing, and how it ended. Enabled by
 * default in any recording ({@code -XX:StartFlightRecording}); switched off with the recording's
 * settings ({@code io.zerocopy.Transfer#enabled=false}). No stack trace: it would cost more than
 * a small transfer. Only {@link TransferEvents} touches this class, so that a runtime without the
 * {@code jdk.jfr} module never loads it.
 */
@Name(TransferEvent.NAME)
@Label("Transfer")
@Category("zerocopy")
@Description("A zerocopy transfer: strategy, bytes, time stalled and outcome")
@StackTrace(false)
final class TransferEvent extends jdk.jfr.Event {
    static final String NAME = "io.zerocopy.Transfer";

    @Label("Strategy")
    String strategy;

    @Label("Reason")
    @Description("Why the strategy was chosen, as TransferResult.reason() says")
    String reason;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Expected Bytes")
    @Description("The bytes the transfer set out to move, or -1 to the end of the source")
    @DataAmount
    long expectedBytes;

    @Label("Time Stalled")
    @Description("How long steps moved nothing (a full target, an empty source), in all")
    @Timespan(Timespan.NANOSECONDS)
    long stalled;

    @Label("Outcome")
    @Description("completed, failed, cancelled or closed")
    String outcome;

    @Label("Source")
    String source;

    @Label("Target")
    String target;
}
