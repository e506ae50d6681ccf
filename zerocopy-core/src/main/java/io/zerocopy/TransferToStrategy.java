package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import org.slf4j.Logger;

/**
 * {@code FileChannel.transferTo}: the kernel copies from the page cache ({@code sendfile(2)} or
 * {@code copy_file_range(2)} on Linux) to a JDK channel the platform has a path to; elsewhere the
 * JDK copies through a buffer itself, correct but slow, so the selector picks this strategy only
 * where {@code Platform.directTransferPath} has a path. Stateless; one shared instance.
 *
 * <p>To any other channel the JDK copies through a buffer and drops a write's failure after the
 * first bytes of a call; {@link KeptFailure} keeps it.
 *
 * <p><b>Virtual threads.</b> From Java 21, {@code transferTo} to a full blocking socket used from a
 * virtual thread returns 0 instead of parking (JDK 25 {@code FileChannelImpl}). So there the step
 * waits through a {@link ParkingBridge}: on a 0 it writes the next file bytes through the socket's
 * own {@code write}, which parks, and then goes on with {@code sendfile}.
 */
final class TransferToStrategy extends BuiltInStrategy {
    static final TransferToStrategy INSTANCE = new TransferToStrategy();

    private static final Logger log = Logs.TRANSFERS;

    static final String NAME = "transferTo";

    private TransferToStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.sourceKind() != ChannelKind.FILE) {
            return "source is " + facts.sourceKind() + ", transferTo needs a file";
        }
        if (facts.sourceDirectIo()) {
            // EINVAL at an unaligned offset; the JDK then maps (JDK 17), or from JDK 21 (below 16 KiB,
            // or to a channel not its own) reads into a heap buffer, which direct I/O rejects
            return "the source was opened for direct I/O, which sendfile and copy_file_range reject at"
                    + " unaligned offsets and the JDK's fallback reads through an unaligned buffer";
        }
        return null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        String how = facts.directPath() != null
                ? facts.directPath() + " from a file to a " + facts.targetKind()
                : "the JDK's user-space copy (no kernel path to a " + facts.targetKind() + " here)";
        return parkable(facts) && facts.openedOnVirtualThread()
                ? how + "; on a virtual thread a full socket is waited for by writing the next " + ParkingBridge.BYTES
                        + " bytes through the socket's own write, which parks the thread"
                : how;
    }

    /** A blocking JDK socket: a step advanced on a virtual thread (read at each step) parks in its write. */
    private static boolean parkable(TransferFacts facts) {
        return !facts.targetNonBlocking() && facts.targetKind() == ChannelKind.SOCKET;
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) {
        return new Step(facts, parkable(facts));
    }

    private static final class Step implements TransferStep {
        private final FileChannel source;
        private final WritableByteChannel target;
        private final long start;
        private final boolean parkable;
        /** Made at the first park: a step that never parks (most) needs none. */
        private ParkingBridge bridge;

        private boolean switched;
        private long sentfile;

        Step(TransferFacts facts, boolean parkable) {
            this.source = facts.truncatableFile(); // a FILE source: refusal says so
            this.target = facts.targetKind() == ChannelKind.OTHER ? new KeptFailure(facts.target()) : facts.target();
            this.start = facts.position();
            this.parkable = parkable;
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            if (target instanceof KeptFailure) {
                ((KeptFailure) target).rethrow();
            }
            if (bridge != null && bridge.holdsBytes()) {
                return bridge.writeTo(target, maxBytes);
            }
            boolean parks = parkable && Platform.currentThreadIsVirtual();
            if (parks && !switched) {
                ParkingBridge.switchToNonBlocking((SocketChannel) target, false); // before sendfile meets the socket
                switched = true;
            }
            long n = source.transferTo(start + transferred, maxBytes, target);
            if (n != 0 || !parks) {
                sentfile += n;
                return n;
            }
            // Full (or the file ended, which the engine tells apart after a 0): park in the socket's write.
            if (bridge == null) {
                bridge = new ParkingBridge(false);
            }
            source.read(bridge.toFill(maxBytes), start + transferred);
            return bridge.filled() ? bridge.writeTo(target, maxBytes) : 0;
        }

        @Override
        public void close() {
            if (switched && log.isDebugEnabled()) { // a virtual thread advanced it: how it waited
                log.debug("{}: {} bytes by {}, {}", this, sentfile, NAME, bridge != null ? bridge : "no parked write");
            }
        }

        @Override
        public String toString() {
            return parkable ? NAME + "(parking writes of " + ParkingBridge.BYTES + " bytes)" : NAME;
        }
    }
}
