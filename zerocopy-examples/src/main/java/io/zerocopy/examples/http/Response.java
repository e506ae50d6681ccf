package io.zerocopy.examples.http;

import io.zerocopy.TruncatedSourceException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * One planned response: the head (status line, header fields, and for error pages their few bytes
 * of text), then optionally a slice of an open file. It owns the file: {@link #close()} closes it
 * (gives it back, when it came from the cache of open files).
 */
final class Response implements AutoCloseable {
    final int status;
    final ByteBuffer head;
    final FileChannel file;
    final long position;
    final long count;
    final boolean close;
    private final Request request;
    /** What {@link #close()} closes: the file's owner (a cache's lease), or null when there is no file. */
    private final Closeable owner;
    /** How many bytes at the end of {@link #head} are an error page's body, not the head's. */
    private final int pageBytes;

    /**
     * @param status the status code, for the access log
     * @param head the bytes to send first, ready to read
     * @param file the file whose slice follows the head, or null
     * @param owner what {@link #close()} closes: {@code file} or a cache's lease on it; null without a file
     * @param position where the slice starts
     * @param count how many bytes of the file follow (0 if none)
     * @param close whether the connection closes after this response
     * @param request the request answered, or null if there was none (a head the parser rejected)
     * @param pageBytes how many bytes at the end of {@code head} are an error page's body (0 for none)
     */
    Response(
            int status,
            ByteBuffer head,
            FileChannel file,
            Closeable owner,
            long position,
            long count,
            boolean close,
            Request request,
            int pageBytes) {
        this.status = status;
        this.head = head;
        this.file = file;
        this.owner = owner;
        this.position = position;
        this.count = count;
        this.close = close;
        this.request = request;
        this.pageBytes = pageBytes;
    }

    /** The request answered, or null if there was none. */
    Request request() {
        return request;
    }

    /** The request line for the access log, or "-" if there was none; made only when a log asks. */
    String requestLine() {
        return request == null ? "-" : request.requestLine();
    }

    /**
     * Whether nothing of this response went out, its head included, before {@code failure} found its
     * file shorter than when it was opened: the request can then be answered anew.
     */
    boolean nothingSent(TruncatedSourceException failure) {
        return failure.bytesTransferred() == 0 && head.position() == 0;
    }

    /**
     * The bytes of a body that went out, as the access log counts them: of the file, {@code fileBytes};
     * of an error page, which ends the head buffer (its last {@code pageBytes}), what of it was sent.
     */
    long bodyBytesSent(long fileBytes) {
        return Math.max(0, fileBytes) + Math.max(0, head.position() - (head.limit() - pageBytes));
    }

    /** Bytes on the wire: head plus body. */
    long length() {
        return head.limit() + count;
    }

    @Override
    public void close() {
        if (owner != null) {
            try {
                owner.close();
            } catch (IOException ignored) {
                // a read-only file: nothing was written that closing could lose
            }
        }
    }

    @Override
    public String toString() {
        return status + " (" + head.limit() + " + " + count + " bytes" + (close ? ", then close" : "") + ")";
    }
}
