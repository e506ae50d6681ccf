package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A strategy of the library's own: it decides from the transfer's {@link TransferFacts} rather than
 * working them out again, and takes what its step needs (a pooled direct buffer) at the moment it
 * is chosen, so that the reason a choice gives is true of the step that runs. The SPI methods work
 * out the facts of a bare request and serve strategy authors' tests and the registry alike.
 */
abstract class BuiltInStrategy implements TransferStrategy {
    private final String name;

    BuiltInStrategy(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** Null when the strategy can serve the transfer; else why not, in words. Cheap: no I/O. */
    abstract String refusal(TransferFacts facts);

    /** How the strategy serves the transfer with {@code pooled}, in words; built only when a reason is read. */
    abstract String how(TransferFacts facts, ByteBuffer pooled);

    /**
     * Takes what a step will need, as part of being chosen; null for nothing. Only the buffered
     * strategy takes anything: a direct buffer from the pool, while the budget lasts.
     */
    ByteBuffer takeFromPool(TransferFacts facts) {
        return null;
    }

    /**
     * The per-transfer step, owning {@code pooled} from now on (it gives it back when it closes);
     * {@code pooled} holds what {@link #readAhead} read if {@code firstBytesRead}.
     */
    abstract TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) throws IOException;

    /**
     * Whether {@link #readAhead} can read the whole transfer from its FILE source into
     * {@code pooled} in one go, so that this read is also the check that the slice can be read.
     */
    boolean canReadAhead(TransferFacts facts, ByteBuffer pooled) {
        return false;
    }

    /**
     * Reads the whole transfer into {@code pooled} before it starts; only after
     * {@link #canReadAhead} said yes. Returns the bytes read, fewer than the count if the file ended
     * first. The step is then opened with {@link #open(TransferFacts, ByteBuffer, boolean)}.
     */
    int readAhead(TransferFacts facts, ByteBuffer pooled) throws IOException {
        throw new UnsupportedOperationException(name() + " reads nothing ahead");
    }

    @Override
    public final Support supports(TransferRequest request) {
        return supports(TransferFacts.of(request));
    }

    /** As the SPI's {@code supports}, for facts already worked out. */
    final Support supports(TransferFacts facts) {
        String refusal = refusal(facts);
        if (refusal != null) {
            return Support.no(refusal);
        }
        ByteBuffer pooled = takeFromPool(facts);
        try {
            return Support.yes(how(facts, pooled));
        } finally {
            DirectBuffers.giveBack(pooled);
        }
    }

    @Override
    public final TransferStep open(TransferRequest request) throws IOException {
        return open(TransferFacts.of(request));
    }

    /** As the SPI's {@code open}, for facts already worked out. */
    final TransferStep open(TransferFacts facts) throws IOException {
        ByteBuffer pooled = takeFromPool(facts);
        try {
            return open(facts, pooled, false);
        } catch (IOException | RuntimeException | Error e) {
            DirectBuffers.giveBack(pooled);
            throw e;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
