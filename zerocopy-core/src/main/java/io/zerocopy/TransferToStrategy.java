package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code FileChannel.transferTo}: the kernel copies from the page cache ({@code sendfile(2)} or
 * {@code copy_file_range(2)} on Linux) when the target is a JDK channel the platform has a path
 * to; otherwise the JDK copies through a mapped or heap buffer itself, which is correct but slow,
 * so the selector only picks this strategy where {@code Platform.directTransferPath} has a path.
 * Stateless; one shared instance.
 *
 * <p><b>Virtual threads.</b> On Java 21 and later the JDK runs a blocking socket used from a
 * virtual thread non-blocking underneath, and {@code transferTo} to it returns 0 whenever the
 * socket is full instead of parking the thread (JDK 25 {@code FileChannelImpl}); a loop can only
 * poll it. So from a virtual thread to a blocking socket the step waits the way the socket's own
 * {@code write} does: on a 0 it writes the next {@link #BRIDGE_BYTES} of the file through that
 * {@code write}, which parks the virtual thread in the JDK's poller until the socket takes them,
 * and then goes on with {@code sendfile}. Before its first {@code sendfile} it makes a write of
 * nothing, so that the JDK has switched the socket to non-blocking (it does that on a virtual
 * thread's first read or write): otherwise a {@code sendfile} to a full socket would block the
 * carrier thread itself.
 */
final class TransferToStrategy extends BuiltInStrategy {
    static final TransferToStrategy INSTANCE = new TransferToStrategy();

    private static final Logger log = LoggerFactory.getLogger(Transfers.class);

    static final String NAME = "transferTo";

    /**
     * File bytes a virtual thread writes through the socket's own {@code write} when
     * {@code sendfile} finds the socket full: 4 KiB, one page. Of 4, 16 and 64 KiB it cost the
     * least sender CPU per GB with Nagle on and off, and sent the fewest bytes (0.2%) through the
     * copy, with as many parks per transfer (docs/virtual-threads.md); a thousand parked transfers
     * hold 4 MiB of heap between them.
     */
    static final int BRIDGE_BYTES = 4 * 1024;

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private TransferToStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    String refusal(TransferFacts facts) {
        if (facts.sourceKind() != ChannelKind.FILE) {
            return "source is " + facts.sourceKind() + ", transferTo needs a file";
        }
        if (facts.sourceDirectIo()) {
            // sendfile and copy_file_range fail with EINVAL at an unaligned offset; the JDK then maps
            // (JDK 17), or from JDK 21 below 16 KiB and to any channel not its own reads the file
            // into a heap buffer, which direct I/O rejects.
            return "the source was opened for direct I/O, which sendfile and copy_file_range reject at"
                    + " unaligned offsets and the JDK's fallback reads through an unaligned buffer";
        }
        return null;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer lent) {
        String how = facts.directPath() != null
                ? facts.directPath() + " from a file to a " + facts.targetKind()
                : "the JDK's user-space copy (no kernel path to a " + facts.targetKind() + " here)";
        return parks(facts)
                ? how + "; on this virtual thread a full socket is waited for by writing the next " + BRIDGE_BYTES
                        + " bytes through the socket's own write, which parks the thread"
                : how;
    }

    /** A blocking JDK socket written from a virtual thread: the step parks through the socket's write. */
    private static boolean parks(TransferFacts facts) {
        return facts.blockingTargetOnVirtualThread() && facts.targetKind() == ChannelKind.SOCKET;
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer lent) {
        if (parks(facts)) {
            return new ParkingStep(facts);
        }
        FileChannel source = facts.request().sourceFile();
        WritableByteChannel target = facts.request().target();
        long start = facts.request().position();
        return new TransferStep() {
            @Override
            public long move(long transferred, long maxBytes) throws IOException {
                // Returns 0 both when a non-blocking target is full and when the file ended early;
                // the engine tells the two apart.
                return source.transferTo(start + transferred, maxBytes, target);
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return NAME;
            }
        };
    }

    /** transferTo from a virtual thread to a blocking socket, waiting for room by the socket's own parking write. */
    private static final class ParkingStep implements TransferStep {
        private final FileChannel source;
        private final SocketChannel target;
        private final long start;
        /** File bytes read for a parking write and not yet written (drain mode), or null before the first. */
        private ByteBuffer bridge;
        private boolean switched;
        private long sentfile;
        private long written;
        private int parks;

        ParkingStep(TransferFacts facts) {
            this.source = facts.request().sourceFile();
            this.target = (SocketChannel) facts.request().target();
            this.start = facts.request().position();
        }

        @Override
        public long move(long transferred, long maxBytes) throws IOException {
            if (!switched) {
                target.write(NOTHING); // the JDK makes the socket non-blocking now, before sendfile meets it
                switched = true;
            }
            if (bridge != null && bridge.hasRemaining()) {
                return writeBridge(maxBytes);
            }
            long n = source.transferTo(start + transferred, maxBytes, target);
            if (n != 0) {
                sentfile += n;
                return n;
            }
            // Full (or the file ended, which the engine tells apart after a 0): park in the socket's write.
            if (bridge == null) {
                bridge = ByteBuffer.allocate(BRIDGE_BYTES);
            }
            bridge.clear().limit((int) Math.min(BRIDGE_BYTES, maxBytes));
            if (source.read(bridge, start + transferred) <= 0) {
                bridge.limit(0);
                return 0;
            }
            bridge.flip();
            parks++;
            return writeBridge(maxBytes);
        }

        private long writeBridge(long maxBytes) throws IOException {
            int n = BufferedStrategy.writeAtMost(target, bridge, maxBytes);
            written += n;
            return n;
        }

        @Override
        public void close() {
            if (log.isDebugEnabled()) {
                log.debug("{}: {} bytes by {}, {} through {} parking writes", this, sentfile, NAME, written, parks);
            }
        }

        @Override
        public String toString() {
            return NAME + "(parking writes of " + BRIDGE_BYTES + " bytes)";
        }
    }
}
