package io.zerocopy.benchmarks.uring;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Sends the start of a file to a socket through an io_uring ring of the calling thread: the file is
 * opened, read, sent and closed by operations linked in one submission (docs/io-uring.md). A
 * benchmark prototype, not part of the library. Get one from {@link IoUring#sender()}; the same
 * calls made one by one, without a ring, from {@link IoUring#plainSender()}.
 *
 * <p>Each thread that sends gets its own ring (or memory) on first use. The socket must be a blocking JDK socket
 * channel; it is never closed or shut down here. Thread-safe.
 */
public interface UringSender extends AutoCloseable {

    /**
     * Sends bytes {@code [0, size)} of {@code file} to {@code socket}, opening and closing the file
     * itself, and returns {@code size}.
     *
     * @throws io.zerocopy.TransferException with the bytes sent when a step fails or the file holds
     *     fewer than {@code size} bytes; the socket is left open
     */
    long send(Path file, long size, SocketChannel socket) throws IOException;

    /** Closes the calling thread's ring, if it has one; a later {@code send} opens a new one. */
    @Override
    void close();
}
