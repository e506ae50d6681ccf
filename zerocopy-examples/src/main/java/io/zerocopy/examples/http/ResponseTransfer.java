package io.zerocopy.examples.http;

import io.zerocopy.FileRegion;
import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A response on its way to a non-blocking socket, moved as far as the socket takes each time
 * {@link #advance()} is called. A response with a file body is the library's header + body
 * {@link Transfer}: the head gathered with the first bytes of the file, the rest by the library's
 * choice of strategy. A response without one (error pages, HEAD, 304) is its head alone, written
 * here. Owns neither the file nor the socket.
 */
final class ResponseTransfer implements AutoCloseable {
    private final ByteBuffer head;
    private final int headBytes;
    private final Transfer body;
    private final SocketChannel target;

    private ResponseTransfer(ByteBuffer head, Transfer body, SocketChannel target) {
        this.head = head;
        this.headBytes = head.remaining();
        this.body = body;
        this.target = target;
    }

    /** Opens the transfer of a response; the library chooses its strategy now. */
    static ResponseTransfer open(TransferOptions options, Response response, SocketChannel target) throws IOException {
        Transfer body = response.count == 0
                ? null
                : Transfers.open(
                        FileRegion.of(response.file, response.position, response.count)
                                .withPrefix(new ByteBuffer[] {response.head}),
                        target,
                        options);
        return new ResponseTransfer(response.head, body, target);
    }

    /**
     * Moves what the socket takes now and returns the bytes moved, head included; 0 if it took
     * nothing. Never blocks on a non-blocking socket.
     *
     * @throws IOException if the socket fails, or the file shrank below the slice
     */
    long advance() throws IOException {
        if (body != null) {
            return body.advance();
        }
        long total = 0;
        for (int n; head.hasRemaining() && (n = target.write(head)) > 0; ) {
            total += n;
        }
        return total;
    }

    boolean isDone() {
        return body != null ? body.isDone() : !head.hasRemaining();
    }

    /** Body bytes moved so far (the head not included). */
    long bodyTransferred() {
        return body == null ? 0 : Math.max(0, body.bytesTransferred() - headBytes);
    }

    /** What to wait for before the next {@link #advance()}: {@code OP_WRITE}, or 0 when done. */
    int interestOps() {
        if (body != null) {
            return body.interestOps();
        }
        return isDone() ? 0 : SelectionKey.OP_WRITE;
    }

    /** Releases what the library holds for the body (a buffer, say); abandons it if not done. */
    @Override
    public void close() {
        if (body != null) {
            body.close();
        }
    }

    @Override
    public String toString() {
        return body != null ? body.toString() : "head of " + headBytes + " bytes";
    }
}
