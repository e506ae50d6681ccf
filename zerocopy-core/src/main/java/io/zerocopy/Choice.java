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
    /** How a transfer's slice is checked before it starts (see {@code Opener}). */
    enum Check {
        /** A one-byte read of the slice's last byte. */
        LAST_BYTE,
        /** The step's read of the whole slice into its buffer, when the buffer holds it: that read is the check. */
        READ_AHEAD,
        /**
         * The read of a region's whole body, which goes out with its prefix in one gathering write
         * ({@link PrefixWrite}); no step runs after it, and that read is the check.
         */
        WITH_PREFIX
    }

    /** Puts the reason into words from the strategy's own account of how it serves the transfer. */
    interface Words {
        String of(String how);
    }

    final TransferStrategy strategy;
    private final TransferFacts facts;
    private final ByteBuffer pooled;
    private final Words words;
    /** A registered strategy's own answer, which says how it serves the transfer; else null. */
    private final Support support;

    private final Check check;
    private String reason;
    private boolean pooledPassedOn;
    private boolean firstBytesRead;

    private Choice(
            TransferStrategy strategy,
            TransferFacts facts,
            ByteBuffer pooled,
            Words words,
            Support support,
            Check check) {
        this.strategy = strategy;
        this.facts = facts;
        this.pooled = pooled;
        this.words = words;
        this.support = support;
        this.check = check;
    }

    /** A built-in strategy, with what it took for its step (or its prefix): {@code pooled}, or null. */
    static Choice ofBuiltIn(
            BuiltInStrategy strategy, TransferFacts facts, ByteBuffer pooled, Words words, Check check) {
        return new Choice(strategy, facts, pooled, words, null, check);
    }

    /** A registered strategy that said it supports the transfer. */
    static Choice ofRegistered(TransferStrategy strategy, TransferFacts facts, Support support, Words words) {
        return new Choice(strategy, facts, null, words, support, Check.LAST_BYTE);
    }

    /** Why this strategy runs, in words; worked out on first use. */
    String reason() {
        if (reason == null) {
            String how = support != null ? support.reason() : ((BuiltInStrategy) strategy).how(facts, pooled);
            reason = words.of(how);
        }
        return reason;
    }

    /**
     * Whether the region's whole body goes out with its prefix ({@link PrefixWrite}), read into
     * {@link #passToPrefix()}'s buffer: then no step runs, and that read is the check.
     */
    boolean goesWithPrefix() {
        return check == Check.WITH_PREFIX;
    }

    /** For {@link #goesWithPrefix()}: the pooled buffer the choice took for the body, or null; the prefix owns it now. */
    ByteBuffer passToPrefix() {
        pooledPassedOn = true;
        return pooled;
    }

    /** Whether the transfer's slice is checked by reading it whole into what the choice took ({@link #readAhead}). */
    boolean readsAhead() {
        return check == Check.READ_AHEAD && ((BuiltInStrategy) strategy).canReadAhead(facts, pooled);
    }

    /**
     * Reads the transfer's bytes ahead into what the choice took; only when {@link #readsAhead()}.
     * Returns the bytes read, fewer than the count if the file ended first.
     */
    int readAhead() throws IOException {
        int n = ((BuiltInStrategy) strategy).readAhead(facts, pooled);
        firstBytesRead = n > 0;
        return n;
    }

    /** Opens the step; from now on the step owns what the choice took. */
    TransferStep open(TransferFacts facts) throws IOException {
        pooledPassedOn = true;
        if (!(strategy instanceof BuiltInStrategy)) {
            return strategy.open(facts.request());
        }
        try {
            return ((BuiltInStrategy) strategy).open(facts, pooled, firstBytesRead);
        } catch (IOException | RuntimeException | Error e) {
            DirectBuffers.giveBack(pooled);
            throw e;
        }
    }

    /** Gives back what the choice took when no step was opened (a transfer of nothing). */
    void release() {
        if (!pooledPassedOn) {
            pooledPassedOn = true;
            DirectBuffers.giveBack(pooled);
        }
    }

    @Override
    public String toString() {
        return strategy.name() + " (" + reason() + ")";
    }
}
