package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * How a step whose kernel call would make a virtual thread poll waits instead the way the socket's
 * own calls do. On Java 21 and later the JDK runs a blocking socket used from a virtual thread
 * non-blocking underneath: {@code sendfile} and {@code splice} to a full socket, or from an empty
 * one, then return at once where the socket's own {@code read} or {@code write} would park the
 * thread in the JDK's poller until it is ready. So the step moves the next {@link #BYTES} bytes
 * through this bridge (read into its buffer, written out through the socket's own {@code write},
 * which parks), and then goes on with the kernel call.
 *
 * <p>Before its first kernel call a step lets the JDK switch the socket to non-blocking
 * ({@link #switchToNonBlocking}); otherwise a kernel call on a full or empty socket would block the
 * carrier thread itself. Not thread-safe; one per step.
 */
final class ParkingBridge {

    /**
     * Bytes moved through the bridge each time the kernel call would wait: 4 KiB, one page. Of 4,
     * 16 and 64 KiB it cost the least sender CPU per GB with Nagle on and off, and sent the fewest
     * bytes (0.2%) through the copy, with as many parks per transfer (docs/virtual-threads.md); a
     * thousand parked transfers hold 4 MiB between them.
     */
    static final int BYTES = 4 * 1024;

    /** Whether the buffer is direct: a native call reads into it. */
    private final boolean direct;
    /** Bytes taken and not yet written (drain mode), or null before the first. */
    private ByteBuffer buffer;

    private long written;
    private int parks;

    /** @param direct whether a native call fills the buffer, which must then be direct */
    ParkingBridge(boolean direct) {
        this.direct = direct;
    }

    /**
     * Makes the JDK switch a socket used from a virtual thread to non-blocking now, with a read or
     * write of nothing: it does so on the thread's first read or write of it.
     */
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
