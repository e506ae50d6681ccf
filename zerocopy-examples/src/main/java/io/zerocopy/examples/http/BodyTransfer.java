package io.zerocopy.examples.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A response on the wire, driven by an event loop: the head, then a slice of a file, moved as far
 * as a non-blocking socket takes each time {@link #advance()} is called.
 *
 * <p>Stand-in until the library's {@code io.zerocopy.Transfer} (opened by
 * {@code Transfers.open(ByteBuffer[] header, FileChannel, long, long, WritableByteChannel)}) is
 * available: it has the same shape, so switching is a change to this class only. Until then it
 * writes the head and then calls {@code FileChannel.transferTo} itself, with the truncation check
 * the library would make. It owns neither the file nor the socket.
 */
final class BodyTransfer implements AutoCloseable {
    private final ByteBuffer head;
    private final FileChannel file;
    private final long position;
    private final long count;
    private final SocketChannel target;
    private long moved;

    private BodyTransfer(ByteBuffer head, FileChannel file, long position, long count, SocketChannel target) {
        this.head = head;
        this.file = file;
        this.position = position;
        this.count = count;
        this.target = target;
    }

    /** A transfer of the response's head and body to a non-blocking socket. */
    static BodyTransfer open(Response response, SocketChannel target) {
        return new BodyTransfer(response.head, response.file, response.position, response.count, target);
    }

    /**
     * Moves what the socket takes now and returns the bytes moved (head and body), 0 if it took
     * nothing. Never blocks on a non-blocking socket.
     *
     * @throws IOException if the socket fails, or the file shrank below the slice
     */
    long advance() throws IOException {
        long total = 0;
        while (head.hasRemaining()) {
            int n = target.write(head);
            if (n == 0) {
                return total;
            }
            total += n;
        }
        while (moved < count) {
            long n = file.transferTo(position + moved, count - moved, target);
            if (n == 0) {
                long size = file.size();
                if (size < position + count) {
                    throw new IOException("file shrank to " + size + " bytes during the response, which needed "
                            + (position + count));
                }
                return total;
            }
            moved += n;
            total += n;
        }
        return total;
    }

    boolean isDone() {
        return !head.hasRemaining() && moved == count;
    }

    /** Body bytes moved so far (the head not included). */
    long bodyTransferred() {
        return moved;
    }

    /** What to wait for before the next {@link #advance()}: {@code OP_WRITE}, or 0 when done. */
    int interestOps() {
        return isDone() ? 0 : SelectionKey.OP_WRITE;
    }

    @Override
    public void close() {
        // the stand-in opens nothing; the library's transfer releases what its strategy holds
    }

    @Override
    public String toString() {
        return "response of " + head.limit() + " + " + count + " bytes, " + moved + " of the body moved";
    }
}
