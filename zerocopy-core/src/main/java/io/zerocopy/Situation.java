package io.zerocopy;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * One choice in the making: the transfer's facts, the strategies excluded, and the pool's
 * buffer once a row asked for it. The buffer goes to the choice if its strategy is the buffered
 * one, and back to the pool otherwise. Once chosen, it puts the choice's reason into words. Not
 * thread-safe; one per choice.
 */
final class Situation implements Choice.Words {
    final TransferFacts facts;
    private final Set<String> excluded;
    private boolean askedPool;
    private ByteBuffer pooledBuffer;
    private Selection.Reason reason;

    Situation(TransferFacts facts, Set<String> excluded) {
        this.facts = facts;
        this.excluded = excluded;
    }

    /** This situation as the words of a choice made in it for {@code reason}. */
    Situation wordedBy(Selection.Reason reason) {
        this.reason = reason;
        return this;
    }

    @Override
    public String of(String how) {
        return reason.words(this, how);
    }

    boolean excludes(String strategy) {
        return !excluded.isEmpty() && excluded.contains(strategy);
    }

    /** Whether the pool has a direct buffer for the buffered step: false once its budget is spent. */
    boolean hasPooledBuffer() {
        if (!askedPool) {
            askedPool = true;
            pooledBuffer = BufferedStrategy.INSTANCE.takeFromPool(facts);
        }
        return pooledBuffer != null;
    }

    /**
     * What a choice of {@code strategy}, checked as {@code check} says, takes: for a body that goes
     * with its prefix, a pooled buffer that holds it, if one does; the pool's buffer for the
     * buffered step; else nothing.
     */
    ByteBuffer bufferFor(BuiltInStrategy strategy, Choice.Check check) {
        if (check == Choice.Check.WITH_PREFIX) {
            givePooledBufferBack();
            long body = facts.request().count();
            return body == 0 ? null : BufferedStrategy.INSTANCE.takeFromPool(facts, (int) body);
        }
        if (strategy == BufferedStrategy.INSTANCE) {
            hasPooledBuffer();
            return pooledBuffer;
        }
        givePooledBufferBack();
        return strategy.takeFromPool(facts);
    }

    void givePooledBufferBack() {
        DirectBuffers.giveBack(pooledBuffer);
        pooledBuffer = null;
    }
}
