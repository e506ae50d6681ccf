package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Reads into one buffer and writes it out, reusing the buffer for the whole transfer; serves every
 * pair. The buffer is direct when both ends are channels (a JDK channel would otherwise copy a heap
 * buffer into a temporary direct one on every call) and a heap array when either end is a stream
 * (streams take arrays). Direct buffers come from, and go back to, the small {@link DirectBuffers}
 * pool; a heap buffer is never larger than the transfer. Stateless; one shared instance.
 *
 * <p>A read is only issued once the previous read has been written out completely, so bytes read
 * but not yet accepted by a non-blocking target stay in the buffer and are written by the next
 * step.
 */
final class BufferedStrategy implements TransferStrategy {
    static final BufferedStrategy INSTANCE = new BufferedStrategy();

    static final String NAME = "buffered";

    private BufferedStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        return Support.yes("a " + bufferDescription(request) + " buffer of " + bufferSize(request) + " bytes");
    }

    @Override
    public TransferStep open(TransferRequest request) {
        return new Step(request);
    }

    private static boolean usesHeap(TransferRequest request) {
        return request.sourceKind() == ChannelKind.STREAM || request.targetKind() == ChannelKind.STREAM;
    }

    private static String bufferDescription(TransferRequest request) {
        return usesHeap(request) ? "heap" : "direct";
    }

    private static int bufferSize(TransferRequest request) {
        long count = request.count();
        return count < 0 ? request.bufferSize() : (int) Math.max(1, Math.min(request.bufferSize(), count));
    }

    @Override
    public String toString() {
        return NAME;
    }

    private static final class Step implements TransferStep {
        private final ReadableByteChannel source;
        private final FileChannel sourceFile;
        private final long start;
        private final WritableByteChannel target;
        /** Between steps the buffer is in drain mode: its remaining bytes are read but not yet written. */
        private final ByteBuffer buffer;
        /** How much of the buffer one read may fill: the buffer size, or less for a small transfer. */
        private final int size;
        private Side stalledOn = Side.TARGET;

        Step(TransferRequest request) {
            this.source = request.source();
            this.sourceFile = request.sourceKind() == ChannelKind.FILE ? request.sourceFile() : null;
            this.start = request.position();
            this.target = request.target();
            this.size = bufferSize(request);
            // A poolable buffer is asked for at the usual size, so that it serves the next transfer
            // too; a larger one only at the size this transfer needs.
            this.buffer = usesHeap(request) ? ByteBuffer.allocate(size)
                    : DirectBuffers.acquire(request.bufferSize() <= DirectBuffers.MAX_POOLED_BYTES ? request.bufferSize() : size);
            buffer.limit(0);
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
            int limit = buffer.limit();
            if (buffer.remaining() > maxBytes) {
                buffer.limit(buffer.position() + (int) maxBytes);
            }
            try {
                return target.write(buffer);
            } finally {
                buffer.limit(limit);
            }
        }

        @Override
        public Side stalledOn() {
            return stalledOn;
        }

        @Override
        public void close() {
            if (buffer.isDirect()) {
                DirectBuffers.release(buffer);
            }
        }

        @Override
        public String toString() {
            return NAME + "(" + (buffer.isDirect() ? "direct " : "heap ") + buffer.capacity() + ")";
        }
    }
}
