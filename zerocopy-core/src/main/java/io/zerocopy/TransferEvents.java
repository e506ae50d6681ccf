package io.zerocopy;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/**
 * Starts and ends the {@link TransferEvent} of a transfer, and costs one check of a flag when no
 * recording wants it: the event object exists only while a recording is on. The event's type is
 * looked up once the flight recorder is up, never before: the lookup starts the recorder's metadata,
 * about a third of a second at a process's first transfer. A runtime without the {@code jdk.jfr}
 * module (a trimmed image, a modular application that does not resolve it) records nothing.
 */
final class TransferEvents {
    /** Whether there is no recorder to ask: no {@code jdk.jfr}, or a type it would not give. */
    private static volatile boolean absent = !recorderPresent();

    /** The event's type, once the recorder is up; null before. */
    private static volatile EventType type;

    private TransferEvents() {}

    private static boolean recorderPresent() {
        try {
            FlightRecorder.isInitialized();
            return true;
        } catch (LinkageError e) {
            return false; // no jdk.jfr here
        }
    }

    /** A begun event for a transfer that starts now, or null when no recording wants one. */
    static Object begin() {
        EventType t = type;
        if (t == null) {
            // no recording can be on before the recorder is initialized
            if (absent || !FlightRecorder.isInitialized()) {
                return null;
            }
            try {
                t = type = EventType.getEventType(TransferEvent.class);
            } catch (RuntimeException | LinkageError e) {
                absent = true;
                return null;
            }
        }
        if (!t.isEnabled()) {
            return null;
        }
        TransferEvent event = new TransferEvent();
        event.begin();
        return event;
    }

    /** Ends and commits {@code event} (from {@link #begin()}, null for none) with how the transfer ended. */
    static void end(
            Object event,
            TransferFacts facts,
            Choice choice,
            long bytes,
            long expected,
            long stalledNanos,
            String outcome) {
        if (event == null) {
            return;
        }
        TransferEvent e = (TransferEvent) event;
        e.end();
        if (e.shouldCommit()) {
            e.strategy = choice.strategy.name();
            e.reason = choice.reason();
            e.bytes = bytes;
            e.expectedBytes = expected;
            e.stalled = stalledNanos;
            e.outcome = outcome;
            e.source = facts.sourceKind().toString();
            e.target = facts.targetKind().toString();
            e.commit();
        }
    }
}
