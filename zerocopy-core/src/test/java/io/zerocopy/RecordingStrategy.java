package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A strategy whose steps move no real bytes: each step reports what a scripted function says and
 * writes down what the engine asked. Lets engine tests pretend to move gigabytes, stall for ever, or
 * fail at a chosen step.
 */
final class RecordingStrategy implements TransferStrategy {

    /** What step number {@code call} (from 0) reports when asked for at most {@code maxBytes}. */
    @FunctionalInterface
    interface Script {
        long move(int call, long transferred, long maxBytes) throws IOException;
    }

    static final String NAME = "recording";

    final List<Long> asked = new ArrayList<>();
    final List<Long> transferredArguments = new ArrayList<>();
    final List<Long> reported = new ArrayList<>();
    int opens;
    int closes;
    /** What each step's close does after counting itself. */
    Runnable closing = () -> {};

    private final Script script;
    private final TransferStep.Side stalledOn;

    RecordingStrategy(Script script) {
        this(script, TransferStep.Side.TARGET);
    }

    RecordingStrategy(Script script, TransferStep.Side stalledOn) {
        this.script = script;
        this.stalledOn = stalledOn;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        return Support.yes("scripted for a test");
    }

    @Override
    public TransferStep open(TransferRequest request) {
        opens++;
        return new TransferStep() {
            @Override
            public long move(long transferred, long maxBytes) throws IOException {
                asked.add(maxBytes);
                transferredArguments.add(transferred);
                long n = script.move(asked.size() - 1, transferred, maxBytes);
                reported.add(n);
                return n;
            }

            @Override
            public Side stalledOn() {
                return stalledOn;
            }

            @Override
            public void close() {
                closes++;
                closing.run();
            }
        };
    }

    /** The sum of the positive counts the steps reported. */
    long reportedTotal() {
        return reported.stream().mapToLong(n -> Math.max(n, 0)).sum();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
