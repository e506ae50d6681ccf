package io.zerocopy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A region of a file, {@code count} bytes from {@code position}, optionally preceded by a prefix
 * held in buffers: an HTTP response's head and body, a record's framing and payload, a log
 * segment's slice. {@link Transfers#copy(FileRegion, java.nio.channels.WritableByteChannel)} sends
 * the prefix and then the region as one stream.
 *
 * <pre>{@code
 * ByteBuffer head = ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n")
 *         .getBytes(StandardCharsets.US_ASCII));
 * long sent = Transfers.copy(FileRegion.of(file, 0, size).withPrefix(head), socket);
 * }</pre>
 *
 * <p>A region only names the bytes; it neither opens nor closes the file, and checks that the
 * bytes exist only when a transfer starts. It holds the prefix buffers themselves, not copies: a
 * transfer consumes them (their positions advance) as a gathering write does, so a region with a
 * prefix is sent once. Immutable apart from those buffers; the array passed to
 * {@link #withPrefix} is copied. Equality is identity, since the buffers change as they are sent.
 */
public final class FileRegion {
    private static final ByteBuffer[] NO_PREFIX = new ByteBuffer[0];

    private final FileChannel file;
    private final long position;
    private final long count;
    private final ByteBuffer[] prefix;

    private FileRegion(FileChannel file, long position, long count, ByteBuffer[] prefix) {
        this.file = file;
        this.position = position;
        this.count = count;
        this.prefix = prefix;
    }

    /**
     * The {@code count} bytes of {@code file} from {@code position}, with no prefix. The file's own
     * position plays no part and is never moved.
     *
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative
     */
    public static FileRegion of(FileChannel file, long position, long count) {
        Objects.requireNonNull(file, "file");
        Checks.notNegative(position, "position");
        Checks.notNegative(count, "count");
        return new FileRegion(file, position, count, NO_PREFIX);
    }

    /**
     * This region preceded by {@code prefix}, sent in array order; replaces any prefix it had. Each
     * buffer may appear once: to send the same bytes twice, pass a {@code duplicate()}.
     *
     * @throws IllegalArgumentException if the same buffer object appears twice, whose one position
     *     cannot say what of each was sent
     */
    public FileRegion withPrefix(ByteBuffer... prefix) {
        Objects.requireNonNull(prefix, "prefix");
        ByteBuffer[] copy = prefix.clone();
        for (int i = 0; i < copy.length; i++) {
            Objects.requireNonNull(copy[i], "prefix[" + i + "]");
            for (int j = 0; j < i; j++) {
                if (copy[j] == copy[i]) {
                    throw new IllegalArgumentException("prefix[" + i + "]: the same buffer as prefix[" + j
                            + "] (expected: each buffer once; pass a duplicate() to send its bytes again)");
                }
            }
        }
        return new FileRegion(file, position, count, copy);
    }

    /** The file the region is in; the caller's, never closed by a transfer. */
    public FileChannel file() {
        return file;
    }

    /** Where the region starts in the file. */
    public long position() {
        return position;
    }

    /** How many bytes of the file the region holds, not counting the prefix. */
    public long count() {
        return count;
    }

    /** The prefix buffers, in the order they are sent (a copy of the array; the buffers themselves). */
    public ByteBuffer[] prefix() {
        return prefix.clone();
    }

    /** The prefix buffers without a copy, for the library's own use. */
    ByteBuffer[] prefixBuffers() {
        return prefix;
    }

    boolean hasPrefix() {
        return prefix.length > 0;
    }

    @Override
    public String toString() {
        return "FileRegion{"
                + (prefix.length > 0
                        ? PrefixWrite.prefixBytes(prefix) + " prefix bytes in " + prefix.length + " buffers, then "
                        : "")
                + count + " bytes from " + position + " of " + file + "}";
    }
}
