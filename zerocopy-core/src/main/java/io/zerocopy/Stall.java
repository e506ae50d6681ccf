package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.IOException;

/**
 * The one owner of a transfer's zero progress: how many steps in a row moved nothing, since when,
 * and what that means for a file source. After a step that moved nothing, a file source that shrank
 * is a truncation; one that ended while its size still reads the same (procfs, sysfs) is found by
 * reading one byte, at once when only the source can be holding up (a blocking target), else after
 * {@link #SELECT_TRUST} such steps in a row. The blocking engine reads the same count and time to
 * back off and to time out.
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
     * Counts a step that moved nothing and checks the source.
     *
     * @param moved the transfer's count so far, prefix included
     * @param fileOffset where in the source file the next byte is, or -1 when no file step has run
     *     yet (a prefix is still going out)
     * @throws IOException a {@link TruncatedSourceException} or early-end {@link TransferException}
     */
    void zeroStep(long moved, long fileOffset) throws IOException {
        if (idleSteps++ == 0) {
            since = System.nanoTime();
        }
        if (facts.sourceKind() != ChannelKind.FILE || fileOffset < 0) {
            return;
        }
        TruncatedSourceException truncation = failures.truncation(null, moved);
        if (truncation != null) {
            throw truncation;
        }
        if (!facts.targetNonBlocking() || idleSteps > SELECT_TRUST) {
            if (!facts.sourceDirectIo() && ChannelKinds.probe(facts.request().sourceFile(), fileOffset) < 0) {
                throw failures.endedEarly(null, moved);
            }
        }
    }
}
