package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.nio.ByteBuffer;

/**
 * A small file the library opened itself with the kernel's calls ({@link NativeFiles}: Java 22+ on
 * Linux, with native access), sent as nginx sends one: {@code openat} and {@code fstat} before the
 * transfer, then a {@code pread} into a pooled direct buffer and the target's own {@code write},
 * then {@code close}; with a prefix, one gathering write of both. No {@code FileChannel}, no stat
 * by path, no failed {@code copy_file_range}. The step is the buffered strategy's over the native
 * file, so a full non-blocking target, a virtual thread parked in the socket's write, an interrupt
 * and a file that shrinks behave exactly as they do there.
 *
 * <p>It serves only such a file: {@code Transfers.copy(Path, ...)} and {@link OpenFile} make one
 * when the options let this strategy run; another strategy forced, or this one excluded, and they
 * open a JDK channel as before. Stateless; one shared instance.
 */
final class NativeStrategy extends BuiltInStrategy {
    static final NativeStrategy INSTANCE = new NativeStrategy();

    static final String NAME = "native";

    private NativeStrategy() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.nativeSource()) {
            return null;
        }
        String unavailable = NativeFiles.unavailable();
        return "native sends only a file the library opened itself (a path, or an OpenFile's channel)"
                + (unavailable == null ? "; the source is a " + facts.sourceKind() : "; " + unavailable);
    }

    @Override
    ByteBuffer takeFromPool(TransferFacts facts) {
        return BufferedStrategy.INSTANCE.takeFromPool(facts);
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        return "the file opened with openat and sized with fstat, read with pread into "
                + BufferedStrategy.INSTANCE.how(facts, pooled) + ", no FileChannel";
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled) {
        return BufferedStrategy.INSTANCE.open(facts, pooled);
    }
}
