package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * {@code FileChannel.transferFrom} from a channel into a file target; never chosen automatically,
 * available to force. The JDK reads a non-file source through an 8 KiB heap buffer, so the selector
 * prefers the buffered strategy for sockets. A {@code FileChannel} source is declined:
 * {@code transferFrom} reads it at its shared position, and transferTo reaches the same
 * {@code copy_file_range(2)} at explicit positions. Stateless; one shared instance.
 *
 * <p>It writes at an explicit target position, from where the target's position is at the first
 * step (after a region's prefix), so the step moves the target's position past the bytes written
 * when it closes, as a {@code write} would. The JDK drops a read's failure after the first bytes of
 * a call ({@link KeptFailure} keeps it). It returns 0 both at end of stream and when
 * a read yielded nothing, so the source must be blocking, and a 0 is confirmed by reading one byte.
 */
final class TransferFromStrategy extends BuiltInStrategy {
    static final TransferFromStrategy INSTANCE = new TransferFromStrategy();

    static final String NAME = "transferFrom";

    private TransferFromStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.targetKind() != ChannelKind.FILE) {
            return "target is " + facts.targetKind() + ", transferFrom needs a file";
        }
        if (facts.request().source() instanceof FileChannel) {
            return "transferFrom would read the source file at its shared position; "
                    + "transferTo takes the same kernel path at explicit positions";
        }
        if (facts.sourceNonBlocking()) {
            return "transferFrom cannot tell end of stream from an empty non-blocking source";
        }
        return null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        return "FileChannel.transferFrom from a " + facts.sourceKind() + " into a file";
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) throws IOException {
        return new Step(facts.request());
    }

    private static final class Step extends SidedStep {
        private final FileChannel target;
        private final ReadableByteChannel source;
        private final KeptFailure reads;
        private final ByteBuffer probe = ByteBuffer.allocate(1);
        /** The target's position at the first move, after a region's prefix went out through it; -1 until then. */
        private long targetStart = -1;

        private long done;

        Step(TransferRequest request) {
            this.target = request.targetFile();
            this.source = request.source();
            this.reads = new KeptFailure(source);
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            reads.rethrow();
            if (targetStart < 0) {
                targetStart = target.position();
            }
            long n = target.transferFrom(reads, targetStart + transferred, maxBytes);
            if (n == 0) {
                n = probe(targetStart + transferred);
            } else {
                stalledOn = Side.TARGET;
            }
            done = transferred + Math.max(n, 0);
            return n;
        }

        /**
         * Reads one byte to tell end of stream (-1) from a source with nothing to give (0), and writes
         * it if there is one. Before JDK 21 {@code transferFrom} also moves nothing to a position past
         * the target's end; this positional write extends the file, and {@code transferFrom} goes on.
         */
        private long probe(long at) throws IOException {
            probe.clear();
            int r = source.read(probe);
            if (r <= 0) {
                stalledOn = Side.SOURCE;
                return r;
            }
            probe.flip();
            while (probe.hasRemaining()) {
                target.write(probe, at);
            }
            return 1;
        }

        @Override
        public void close() throws IOException {
            if (targetStart >= 0 && target.isOpen()) {
                FileChannels.setPosition(target, targetStart + done);
            }
        }

        @Override
        public String toString() {
            return NAME;
        }
    }
}
