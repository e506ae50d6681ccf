package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Maps the source file read-only in windows of {@code mappedWindow} bytes (at most
 * {@link Mappings#maxBytes()}) and writes each window to the target:
 * no copy into a Java buffer. Each window is unmapped once the transfer moves past it
 * ({@link Mappings}). Stateless; one shared instance.
 *
 * <p><b>Truncation.</b> A window never reaches past the file's size when mapped. If the file shrinks
 * meanwhile, touching the lost pages raises SIGBUS: an {@code InternalError} when Java code copies
 * from the buffer, {@code EFAULT} when a system call reads it; the step turns both into an
 * {@code IOException}, which the engine reports as a {@link TruncatedSourceException}. HotSpot may
 * deliver the {@code InternalError} after the faulting copy returned ({@link RealTransfer#advance()}
 * and the blocking loop guard against a late one), so a target copying in Java may get bytes of no
 * defined value for the lost pages, and any target up to a page of them from the page holding the
 * new end, which stays mapped. All are counted: what was sent past the new end is not to be trusted.
 */
final class MappedStrategy extends BuiltInStrategy {
    static final MappedStrategy INSTANCE = new MappedStrategy();

    static final String NAME = "mmap";

    private MappedStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.sourceKind() != ChannelKind.FILE) {
            return "source is " + facts.sourceKind() + ", mmap needs a file";
        }
        if (!ChannelKinds.isJdkChannel(facts.request().source())) {
            return "the source is another file system provider's channel, which the JDK cannot map";
        }
        return null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        return "read-only mapped windows of up to " + window(facts) + " bytes, one write each";
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) {
        return new Step(facts.request(), window(facts));
    }

    private static long window(TransferFacts facts) {
        return Math.min(facts.mappedWindow(), Mappings.maxBytes());
    }

    /** The smallest window tried once a larger one is refused: 64 KiB, below which a read costs no more. */
    static final long SMALLEST_WINDOW = 64 * 1024;

    private static final class Step implements TransferStep {
        private final FileChannel source;
        private final WritableByteChannel target;
        private final long start;
        private final long end;
        private long window;
        private Mapping mapping;
        private long mappedFrom;
        private long mappedTo;

        Step(TransferRequest request, long window) {
            this.source = request.sourceFile();
            this.target = request.target();
            this.start = request.position();
            this.end = request.position() + request.count();
            this.window = window;
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            long position = start + transferred;
            if (mapping == null || position < mappedFrom || position >= mappedTo) {
                release();
                if (!map(position)) {
                    return 0;
                }
            }
            ByteBuffer buffer = mapping.buffer();
            int offset = (int) (position - mappedFrom);
            buffer.limit((int) Math.min(offset + maxBytes, mappedTo - mappedFrom));
            buffer.position(offset);
            try {
                return target.write(buffer);
            } catch (InternalError e) {
                throw new IOException(
                        "fault reading the mapped file at position " + position + " (the file may have been truncated)",
                        e);
            }
        }

        /**
         * Maps the window starting at {@code position}; false if the file no longer reaches it. A
         * window refused for want of memory is halved, down to {@link #SMALLEST_WINDOW}, for this and
         * later windows: a process short of address space ({@code ulimit -v}) still maps a smaller one.
         */
        private boolean map(long position) throws IOException {
            long size = Math.min(window, Math.min(end, source.size()) - position);
            if (size <= 0) {
                return false;
            }
            while (mapping == null) {
                try {
                    mapping = Mappings.mapReadOnly(source, position, size);
                } catch (IOException e) {
                    if (size <= SMALLEST_WINDOW || !(e.getCause() instanceof OutOfMemoryError)) {
                        throw e; // refused for want of address space ("Map failed"), or for good
                    }
                    size = Math.max(SMALLEST_WINDOW, size / 2);
                    window = size;
                }
            }
            mappedFrom = position;
            mappedTo = position + size;
            return true;
        }

        private void release() {
            if (mapping != null) {
                Mapping m = mapping;
                mapping = null;
                m.unmap().run();
            }
        }

        @Override
        public void close() {
            release();
        }

        @Override
        public String toString() {
            return NAME + "(window=" + window + ")";
        }
    }
}
