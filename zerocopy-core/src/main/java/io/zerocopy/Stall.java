package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.IOException;

/**
 * The one owner of a transfer's zero progress: how many steps in a row moved nothing, since when,
 * and what that means for a file source. After a step that moved nothing, a file source that shrank
 * is a truncation; one that ended while its size still reads the same (procfs, sysfs) is found by
 * reading one byte, at once when only the source can be holding up (a blocking target), else after
 * {@link #SELECT_TRUST} such steps in a row, and the transfer judges that end. The blocking engine
 * reads the same count and time to back off and to time out.
 */
final class Stall {

    /**
     * Zero-progress steps in a row after which a non-blocking target's "full" is no longer taken at
     * its word and the source is checked for an early end (a sysfs file whose size overstates its
     * content makes {@code transferTo} return 0 for ever, which looks like a full socket).
     */
    static final int SELECT_TRUST = 3;

    private final TransferFacts facts;
    private final TransferFailures failures;
    private int idleSteps;
    private long since;
    /** Time of stalls that ended, for the recording (see {@link TransferEvents}). */
    private long stalledBefore;

    Stall(TransferFacts facts, TransferFailures failures) {
        this.facts = facts;
        this.failures = failures;
    }

    /** Bytes moved (or the transfer is paced, not stalled): the count starts again. */
    void progressed() {
        if (idleSteps > 0) {
            stalledBefore += System.nanoTime() - since;
            idleSteps = 0;
        }
    }

    /** How long the transfer has moved nothing in all, as of {@code now} ({@link System#nanoTime()}). */
    long stalledInAll(long now) {
        return stalledBefore + stalledFor(now);
    }

    /** Zero-progress steps in a row. */
    int idleSteps() {
        return idleSteps;
    }

    /** How long the transfer has moved nothing, as of {@code now} ({@link System#nanoTime()}); 0 while it moves. */
    long stalledFor(long now) {
        return idleSteps == 0 ? 0 : now - since;
    }

    /**
     * Counts a step that moved nothing and checks the source; returns whether the file ended there
     * while its size still reads the same, which the transfer takes as an end of file.
     *
     * @param moved the transfer's count so far, prefix included
     * @param bodyMoved the request's bytes moved so far, the prefix's not counted; negative while a
     *     prefix is still going out, when the file is not looked at
     * @throws TruncatedSourceException if the file shrank
     */
    boolean zeroStep(long moved, long bodyMoved) throws IOException {
        if (idleSteps++ == 0) {
            since = System.nanoTime();
        }
        if (facts.sourceKind() != ChannelKind.FILE || bodyMoved < 0) {
            return false;
        }
        TruncatedSourceException truncation = failures.truncation(null, moved);
        if (truncation != null) {
            throw truncation;
        }
        long next = facts.position() + bodyMoved;
        return (!facts.targetNonBlocking() || idleSteps > SELECT_TRUST)
                && !facts.sourceDirectIo()
                && ChannelKinds.probe(facts.truncatableFile(), next) < 0;
    }
}
