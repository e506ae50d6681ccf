package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Reads into one buffer and writes it out, reusing the buffer for the whole transfer; serves every
 * pair. The buffer is direct between channels (a JDK channel would copy a heap buffer through a
 * temporary direct one on every call) and a heap array, never larger than the transfer, when either
 * end is a stream (streams take arrays). Direct buffers come from {@link DirectBuffers} when the
 * strategy is chosen ({@link BuiltInStrategy}); with the budget spent the step reads through a small
 * heap buffer ({@link DirectBuffers#HEAP_FALLBACK_BYTES}). To a TCP peer on this host on Linux the
 * buffer is cut to whole loopback segments ({@link #writeSize}). A source opened for direct I/O is
 * declined: its reads would have to be block-aligned.
 *
 * <p>A read is issued only once the previous one is written out, so bytes a non-blocking target did
 * not take wait in the buffer for the next step. Stateless; one shared instance.
 */
final class BufferedStrategy extends BuiltInStrategy {
    static final BufferedStrategy INSTANCE = new BufferedStrategy();

    static final String NAME = "buffered";

    /**
     * Largest file to a socket on this host sent by a read and a write instead of {@code sendfile}:
     * 8 KiB, two pages. The read is also the check that the file can be read, so two calls replace
     * the check, the size call and the send (from JDK 20 also a failing {@code copy_file_range}).
     * On 16 CPUs {@code sendfile} took 1.03-1.16x their time up to 7 KiB and at 9 KiB, but 0.88-0.95x
     * at exactly 8 KiB, and 0.81-0.84x at 12 KiB (docs/fixed-cost.md).
     */
    static final long LOCAL_READ_MAX_BYTES = 8 * 1024;

    /** Buffer sizes up to 4 MiB are asked for whole, so that they serve later transfers; larger ones are rare. */
    static final int SHARED_SIZE_LIMIT = 4 << 20;

    private BufferedStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        return facts.sourceDirectIo()
                ? "the source was opened for direct I/O (O_DIRECT), whose reads must be block-aligned"
                : null;
    }

    /** A direct buffer from the pool, unless either end is a stream (which takes arrays) or the budget is spent. */
    @Override
    ByteBuffer takeFromPool(TransferFacts facts) {
        return usesHeap(facts) || facts.sourceDirectIo() ? null : DirectBuffers.SHARED.acquire(poolSize(facts));
    }

    /**
     * A pooled direct buffer for {@code bytes} of the FILE source read ahead of the step (a
     * {@link PrefixWrite}'s file bytes); null where this strategy takes none or its buffers are smaller.
     */
    ByteBuffer takeFromPool(TransferFacts facts, int bytes) {
        int asked = facts.bufferSize();
        return bytes <= asked && asked <= SHARED_SIZE_LIMIT ? takeFromPool(facts) : null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        int writeSize = writeSize(facts);
        int size = bufferSize(facts, writeSize);
        if (!usesHeap(facts) && pooled == null) {
            long budget = DirectBuffers.SHARED.budget();
            int asked = poolSize(facts);
            return "a heap buffer of " + Math.min(size, DirectBuffers.HEAP_FALLBACK_BYTES)
                    + " bytes: the direct memory budget (" + budget + " bytes, "
                    + TransferOptions.DIRECT_MEMORY_PROPERTY + ") "
                    + (budget > 0 && asked > budget ? "is smaller than the " + asked + " asked for" : "is spent");
        }
        String reason = "a " + (usesHeap(facts) ? "heap" : "direct") + " buffer of " + size + " bytes";
        if (size == writeSize && size != facts.bufferSize()) {
            int mss = facts.segmentSize();
            reason += ": " + size / mss + " loopback segments of " + mss + " bytes, the most that fit in the "
                    + facts.bufferSize() + " asked for, so that no write ends in a runt segment that Nagle holds";
        }
        return reason;
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) {
        return new Step(facts, pooled, firstBytesRead);
    }

    /** A file's slice (a FILE source, or a file read through a slice view) that fits in the pooled buffer whole. */
    @Override
    boolean canReadAhead(TransferFacts facts, ByteBuffer pooled) {
        long count = facts.count();
        return pooled != null
                && facts.truncatableFile() != null
                && count > 0
                && count <= bufferSize(facts, writeSize(facts));
    }

    @Override
    int readAhead(TransferFacts facts, ByteBuffer pooled) throws IOException {
        FileChannel file = facts.truncatableFile();
        long start = facts.truncatableStart();
        pooled.clear().limit((int) facts.count());
        while (pooled.hasRemaining() && file.read(pooled, start + pooled.position()) > 0) {
            // a read of a regular file returns what it has, and -1 at its end
        }
        pooled.flip();
        return pooled.remaining();
    }

    private static boolean usesHeap(TransferFacts facts) {
        return facts.sourceIsStream() || facts.targetIsStream();
    }

    /**
     * The size to ask the pool for: the usual size, so that the buffer serves the next transfer too,
     * or above {@link #SHARED_SIZE_LIMIT} (an explicit bufferSize) just what this transfer needs.
     */
    private static int poolSize(TransferFacts facts) {
        int asked = facts.bufferSize();
        return asked <= SHARED_SIZE_LIMIT ? asked : bufferSize(facts, writeSize(facts));
    }

    /** The write size, or the whole transfer when that is smaller. */
    private static int bufferSize(TransferFacts facts, int writeSize) {
        long count = facts.count();
        return count < 0 ? writeSize : (int) Math.max(1, Math.min(writeSize, count));
    }

    /**
     * The requested buffer size, or, to a peer on this host on Linux when at least one segment was
     * asked for, the largest multiple of the loopback MSS within it: any other size leaves a runt
     * segment behind each write that Nagle holds until the peer acknowledges. Other peers' MSS is far
     * smaller, so their size is left alone (docs/benchmarks.md).
     */
    static int writeSize(TransferFacts facts) {
        int requested = facts.bufferSize();
        int mss = facts.segmentSize();
        return mss > 0 && requested >= mss ? requested / mss * mss : requested;
    }

    private static final class Step extends SidedStep {
        private final ReadableByteChannel source;
        private final FileChannel sourceFile;
        private final long start;
        private final WritableByteChannel target;
        /** Between steps the buffer is in drain mode: its remaining bytes are read but not yet written. */
        private final ByteBuffer buffer;
        /** How much of the buffer one read may fill: the buffer size, or less for a small transfer. */
        private final int size;

        /** {@code firstBytesRead}: {@code pooled} holds the transfer's first bytes, read ahead (drain mode). */
        Step(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) {
            // a file, the JDK's or read through a slice view, is read by position: no view needed
            this.sourceFile = facts.truncatableFile();
            this.source = sourceFile == null ? facts.source() : null;
            this.start = facts.truncatableStart();
            this.target = facts.target();
            int wanted = bufferSize(facts, writeSize(facts));
            this.size =
                    usesHeap(facts) || pooled != null ? wanted : Math.min(wanted, DirectBuffers.HEAP_FALLBACK_BYTES);
            this.buffer = pooled != null ? pooled : ByteBuffer.allocate(size);
            if (!firstBytesRead) {
                buffer.limit(0);
            }
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            if (!buffer.hasRemaining()) {
                buffer.clear().limit((int) Math.min(size, maxBytes));
                int read = sourceFile != null ? sourceFile.read(buffer, start + transferred) : source.read(buffer);
                buffer.flip();
                if (read <= 0) {
                    stalledOn = Side.SOURCE;
                    return read;
                }
            }
            stalledOn = Side.TARGET;
            return Writes.atMost(target, buffer, maxBytes);
        }

        @Override
        public void close() {
            if (buffer.isDirect()) {
                DirectBuffers.giveBack(buffer);
            }
        }

        @Override
        public String toString() {
            return NAME + "(" + (buffer.isDirect() ? "direct " : "heap ") + size + ")";
        }
    }
}
