package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * How a step on a virtual thread waits for a socket as the socket's own calls do. From Java 21 the
 * JDK runs a blocking socket used from a virtual thread non-blocking underneath, so {@code sendfile}
 * or {@code splice} to a full socket (or from an empty one) returns at once where the socket's own
 * {@code read} or {@code write} would park; the step then moves the next {@link #BYTES} bytes
 * through this bridge, whose write is the socket's own. Before its first kernel call a step lets
 * the JDK switch the socket to non-blocking ({@link #switchToNonBlocking}), or that call would block
 * the carrier. Not thread-safe; one per step.
 */
final class ParkingBridge {

    /**
     * Bytes moved through the bridge each time the kernel call would wait: 4 KiB, one page, the
     * cheapest in sender CPU of 4, 16 and 64 KiB (docs/virtual-threads.md); 1,000 parked transfers hold 4 MiB.
     */
    static final int BYTES = 4 * 1024;

    private final boolean direct;
    /** Bytes taken and not yet written (drain mode), or null before the first. */
    private ByteBuffer buffer;

    private long written;
    private int parks;

    /** @param direct whether a native call fills the buffer, which must then be direct */
    ParkingBridge(boolean direct) {
        this.direct = direct;
    }

    /** Makes the JDK switch a socket used from a virtual thread to non-blocking now, as its first read or write would. */
    static void switchToNonBlocking(SocketChannel socket, boolean byRead) throws IOException {
        if (byRead) {
            socket.read(ChannelKinds.NOTHING);
        } else {
            socket.write(ChannelKinds.NOTHING);
        }
    }

    /** Whether bytes taken earlier wait to be written. */
    boolean holdsBytes() {
        return buffer != null && buffer.hasRemaining();
    }

    /** The buffer, empty, to be filled with at most {@code maxBytes} (and {@link #BYTES}); then {@link #filled()}. */
    ByteBuffer toFill(long maxBytes) {
        if (buffer == null) {
            buffer = direct ? ByteBuffer.allocateDirect(BYTES) : ByteBuffer.allocate(BYTES);
        }
        buffer.clear().limit((int) Math.min(BYTES, maxBytes));
        return buffer;
    }

    /** Takes what was put into the buffer since {@link #toFill}; false if nothing was. */
    boolean filled() {
        buffer.flip();
        if (!buffer.hasRemaining()) {
            return false;
        }
        parks++;
        return true;
    }

    /** Writes at most {@code maxBytes} of what the bridge holds through {@code target}'s own write, which parks. */
    int writeTo(WritableByteChannel target, long maxBytes) throws IOException {
        int n = Writes.atMost(target, buffer, maxBytes);
        written += n;
        return n;
    }

    /** Writes at most {@code maxBytes} of what the bridge holds into {@code file} at {@code position}. */
    int writeTo(FileChannel file, long position, long maxBytes) throws IOException {
        int limit = buffer.limit();
        buffer.limit((int) Math.min(limit, buffer.position() + maxBytes));
        int n;
        try {
            n = file.write(buffer, position);
        } finally {
            buffer.limit(limit);
        }
        written += n;
        return n;
    }

    @Override
    public String toString() {
        return written + " bytes through " + parks + " parking moves of up to " + BYTES + " bytes";
    }
}
