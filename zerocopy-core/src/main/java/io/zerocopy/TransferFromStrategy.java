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

/**
 * {@code FileChannel.transferFrom} into a file target. From a file source the JDK uses
 * {@code copy_file_range(2)} on Linux from JDK 20, and mapped 8 MiB chunks before; from any other
 * channel it reads through an 8 KiB heap buffer, which is why the selector prefers the buffered
 * strategy for sockets. Stateless; one shared instance.
 *
 * <p>{@code transferFrom} writes at an explicit target position and reads a file source from the
 * source's own position, so the step positions the source before each call, restores it when it
 * closes, and moves the target's position past the bytes written, as a {@code write} would.
 *
 * <p>{@code transferFrom} returns 0 both at end of stream and when a read yielded nothing, so a
 * non-file source must be blocking, and a 0 is confirmed by reading one byte directly.
 */
final class TransferFromStrategy implements TransferStrategy {
    static final TransferFromStrategy INSTANCE = new TransferFromStrategy();

    static final String NAME = "transferFrom";

    private TransferFromStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        if (request.targetKind() != ChannelKind.FILE) {
            return Support.no("target is " + request.targetKind() + ", transferFrom needs a file");
        }
        if (request.sourceNonBlocking()) {
            return Support.no("transferFrom cannot tell end of stream from an empty non-blocking source");
        }
        return Support.yes("FileChannel.transferFrom from a " + request.sourceKind() + " into a file");
    }

    @Override
    public TransferStep open(TransferRequest request) throws IOException {
        return new Step(request);
    }

    @Override
    public String toString() {
        return NAME;
    }

    private static final class Step implements TransferStep {
        private final FileChannel target;
        private final ReadableByteChannel source;
        private final FileChannel sourceFile;
        private final long sourceStart;
        private final long sourceOriginalPosition;
        private final long targetStart;
        private final ByteBuffer probe = ByteBuffer.allocate(1);
        private long done;
        private Side stalledOn = Side.TARGET;

        Step(TransferRequest request) throws IOException {
            this.target = request.targetFile();
            this.source = request.source();
            this.sourceFile = request.sourceKind() == ChannelKind.FILE ? request.sourceFile() : null;
            this.sourceStart = request.position();
            this.sourceOriginalPosition = sourceFile == null ? -1 : sourceFile.position();
            this.targetStart = target.position();
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            long n;
            if (sourceFile != null) {
                sourceFile.position(sourceStart + transferred);
                n = target.transferFrom(sourceFile, targetStart + transferred, maxBytes);
                if (n == 0 && targetStart + transferred > target.size()) {
                    // Before JDK 21 transferFrom moves nothing to a position past the target's end,
                    // however often it is asked. A positional write there extends the file (leaving a
                    // hole, as a write would), after which transferFrom carries on.
                    n = copyOneByte(sourceStart + transferred, targetStart + transferred);
                }
                stalledOn = Side.SOURCE;
            } else {
                n = target.transferFrom(source, targetStart + transferred, maxBytes);
                if (n == 0) {
                    n = probe(targetStart + transferred);
                }
            }
            done = transferred + Math.max(n, 0);
            return n;
        }

        /** Copies the byte of the file source at {@code from} to the target at {@code at}; 0 if the file ends first. */
        private long copyOneByte(long from, long at) throws IOException {
            probe.clear();
            if (sourceFile.read(probe, from) <= 0) {
                return 0; // the file is shorter than the slice: the engine reports the truncation
            }
            probe.flip();
            while (probe.hasRemaining()) {
                target.write(probe, at);
            }
            return 1;
        }

        /** Reads one byte to tell end of stream (-1) from a source with nothing to give (0). */
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
        public Side stalledOn() {
            return stalledOn;
        }

        @Override
        public void close() throws IOException {
            if (target.isOpen()) {
                FileChannels.restorePosition(target, targetStart + done);
            }
            if (sourceFile != null && sourceFile.isOpen()) {
                FileChannels.restorePosition(sourceFile, sourceOriginalPosition);
            }
        }

        @Override
        public String toString() {
            return NAME;
        }
    }
}
