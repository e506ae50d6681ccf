package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The strategy {@link Selection} chose for one transfer, what it took for its step (a pooled
 * buffer, in the same act as the choice), and why. Open it once with {@link #open}, or
 * {@link #release} it if no step will run.
 */
final class Choice {
    /**
     * Puts a row's reason into words, given the strategy's own account of how it serves the
     * transfer and whether an earlier row was passed over because the direct memory budget is spent.
     */
    interface Why {
        String of(TransferFacts facts, String how, boolean budgetSpent);
    }

    final TransferStrategy strategy;
    private final TransferFacts facts;
    private final ByteBuffer lent;
    private final Why why;
    private final Support support;
    private final boolean budgetSpent;
    /** Whether the row that chose reads the transfer ahead, as its check (see {@link #readAhead}). */
    private final boolean readsAhead;
    private String reason;
    private boolean handedOver;
    private boolean filled;

    Choice(TransferStrategy strategy, TransferFacts facts, ByteBuffer lent, Why why, Support support,
            boolean budgetSpent, boolean readsAhead) {
        this.strategy = strategy;
        this.facts = facts;
        this.lent = lent;
        this.why = why;
        this.support = support;
        this.budgetSpent = budgetSpent;
        this.readsAhead = readsAhead;
    }

    /** A choice made by hand (tests), with its reason in words. */
    Choice(TransferStrategy strategy, String reason) {
        this(strategy, null, null, null, null, false, false);
        this.reason = reason;
    }

    /** Why this strategy runs, in words; worked out on first use. */
    String reason() {
        if (reason == null) {
            String how = support != null ? support.reason() : ((BuiltInStrategy) strategy).how(facts, lent);
            reason = why.of(facts, how, budgetSpent);
        }
        return reason;
    }

    /**
     * Reads the transfer's bytes ahead into what the choice took, when its strategy reads so
     * (see {@link BuiltInStrategy#readAhead}); the bytes read, or
     * {@link BuiltInStrategy#NO_READ_AHEAD}.
     */
    int readAhead() throws IOException {
        if (!readsAhead || !(strategy instanceof BuiltInStrategy)) {
            return BuiltInStrategy.NO_READ_AHEAD;
        }
        int n = ((BuiltInStrategy) strategy).readAhead(facts, lent);
        filled = n > 0;
        return n;
    }

    /** Opens the step; from now on the step owns what the choice took. */
    TransferStep open(TransferFacts facts) throws IOException {
        handedOver = true;
        if (!(strategy instanceof BuiltInStrategy)) {
            return strategy.open(facts.request());
        }
        try {
            return ((BuiltInStrategy) strategy).open(facts, lent, filled);
        } catch (IOException | RuntimeException | Error e) {
            DirectBuffers.giveBack(lent);
            throw e;
        }
    }

    /** Gives back what the choice took when no step was opened (a transfer of nothing). */
    void release() {
        if (!handedOver) {
            handedOver = true;
            DirectBuffers.giveBack(lent);
        }
    }

    @Override
    public String toString() {
        return strategy.name() + " (" + reason() + ")";
    }
}
