package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The strategy {@link Selection} chose for one transfer, what it took for its step (a pooled
 * buffer, in the same act as the choice), and why. While the selection's rows are read it is the
 * choice in the making: the facts, the strategies excluded, and the pool's buffer once a row asked
 * for it, which goes to the choice if its strategy is the buffered one and back to the pool
 * otherwise. Open it once with {@link #open}, or {@link #release} it if no step will run. Not
 * thread-safe; one per transfer.
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

    /** Puts the reason into words from the choice and the strategy's own account of how it serves the transfer. */
    interface Words {
        String of(Choice choice, String how);
    }

    final TransferFacts facts;
    private final Set<String> excluded;
    /** Null until chosen. */
    TransferStrategy strategy;

    private ByteBuffer pooled;
    private boolean askedPool;
    private Check check;
    private Words words;
    /** A registered strategy's own answer, which says how it serves the transfer; else null. */
    private Support support;

    private String reason;
    private boolean pooledPassedOn;
    private boolean firstBytesRead;

    /** A choice in the making for {@code facts}, {@code excluded} passed over. */
    Choice(TransferFacts facts, Set<String> excluded) {
        this.facts = facts;
        this.excluded = excluded;
    }

    /** A choice of a registered strategy that said it supports the transfer. */
    static Choice ofRegistered(TransferStrategy strategy, TransferFacts facts, Support support, Words words) {
        Choice choice = new Choice(facts, Set.of());
        choice.strategy = strategy;
        choice.support = support;
        choice.words = words;
        choice.check = Check.LAST_BYTE;
        return choice;
    }

    /**
     * Makes this the choice of the built-in {@code strategy}, checked as {@code check} says, for the
     * reason {@code words} gives, and takes what it needs: for a body that goes with its prefix, a
     * pooled buffer that holds it, if one does; the pool's buffer for the buffered step; else what
     * the strategy takes.
     */
    Choice chosen(BuiltInStrategy strategy, Check check, Words words) {
        if (check == Check.WITH_PREFIX) {
            givePooledBufferBack();
            long body = facts.count();
            pooled = body == 0 ? null : BufferedStrategy.INSTANCE.takeFromPool(facts, (int) body);
        } else if (strategy == BufferedStrategy.INSTANCE) {
            hasPooledBuffer();
        } else {
            givePooledBufferBack();
            pooled = strategy.takeFromPool(facts);
        }
        this.strategy = strategy;
        this.check = check;
        this.words = words;
        return this;
    }

    /** Whether the choice in the making passes over {@code strategy}. */
    boolean excludes(String strategy) {
        return !excluded.isEmpty() && excluded.contains(strategy);
    }

    /** Whether the pool has a direct buffer for the buffered step: false once its budget is spent. */
    boolean hasPooledBuffer() {
        if (!askedPool) {
            askedPool = true;
            pooled = BufferedStrategy.INSTANCE.takeFromPool(facts);
        }
        return pooled != null;
    }

    /** Gives back the buffer a row asked for, when no row was chosen. */
    void givePooledBufferBack() {
        DirectBuffers.giveBack(pooled);
        pooled = null;
    }

    /** Why this strategy runs, in words; worked out on first use. */
    String reason() {
        if (reason == null) {
            String how = support != null ? support.reason() : ((BuiltInStrategy) strategy).how(facts, pooled);
            reason = words.of(this, how);
            if (facts.prefixChunk() > 0) {
                reason += "; the body's first " + facts.prefixChunk()
                        + " bytes went with the prefix in one gathering write";
            }
        }
        return reason;
    }

    /** The debug line each transfer's choice gets on {@code io.zerocopy.Transfers}. */
    void log(TransferFacts facts, PrefixWrite prefix) {
        if (Logs.TRANSFERS.isDebugEnabled()) {
            String after = prefix == null ? "" : ", after a " + prefix;
            Logs.TRANSFERS.debug("{}{} via {}: {}", facts, after, strategy.name(), reason());
        }
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
