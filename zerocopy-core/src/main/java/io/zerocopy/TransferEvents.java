package io.zerocopy;

import jdk.jfr.EventType;

/**
 * Starts and ends the {@link TransferEvent} of a transfer, and costs one check of a flag when no
 * recording wants it: the event object exists only while a recording is on. A runtime without the
 * {@code jdk.jfr} module (a trimmed image, a modular application that does not resolve it) records
 * nothing.
 */
final class TransferEvents {
    /** The event's type, or null where JFR is not there. */
    private static final EventType TYPE = type();

    private TransferEvents() {}

    private static EventType type() {
        try {
            return EventType.getEventType(TransferEvent.class);
        } catch (LinkageError | RuntimeException e) {
            return null; // no jdk.jfr here
        }
    }

    /** A begun event for a transfer that starts now, or null when no recording wants one. */
    static Object begin() {
        if (TYPE == null || !TYPE.isEnabled()) {
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
