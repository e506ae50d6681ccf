package io.zerocopy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;

/**
 * The first write of a file region with a prefix: the caller's prefix buffers (consumed, as a
 * gathering write consumes them) and the file's first bytes ({@link #chunkBytes(long, long, int, long)}),
 * written together so that no segment carries the prefix alone (nginx's {@code TCP_CORK}, which the
 * JDK lacks), where they fit one step: a rate limit's smaller steps write them in turn. The file
 * bytes are read once into a direct buffer lent by {@link DirectBuffers}, or a heap buffer of its
 * own (to a stream, or with the pool empty); what a short first write leaves moves to a heap buffer
 * and the pool's goes back, so a wait on a slow peer holds no pooled memory.
 */
final class PrefixWrite {

    /**
     * File bytes gathered with the prefix for a body over {@link #WHOLE_BODY_BYTES} to a peer not on
     * loopback: 16 KiB, eleven 1500-byte segments, so a thousand transfers waiting on slow clients hold
     * at most 16 MiB of heap; the rest of the file takes the zero-copy path.
     */
    static final int FIRST_CHUNK_BYTES = 16 * 1024;

    /**
     * Largest body gathered whole with the prefix: 80 KiB, the first chunk plus one loopback segment
     * (65,483 bytes, rounded up). A smaller rest after the first chunk would be a short segment that
     * Nagle holds until the delayed acknowledgement, 40 ms on Linux (docs/header-body.md).
     */
    static final int WHOLE_BODY_BYTES = 80 * 1024;

    private final ByteBuffer[] buffers;
    private final FileChannel file;
    private final long position;
    private final long size;
    private final int chunkBytes;
    private int first;
    /** The pool's buffer that holds the chunk until it is written, or null. */
    private ByteBuffer lent;

    /**
     * @param chunk the file bytes to gather with the prefix: the whole body, or {@link #chunkBytes(long, long, int, long)}
     * @param pooled a direct buffer from the pool of at least {@code chunk} bytes, owned from now on
     *     and given back by {@link #release}; or null for a heap buffer
     */
    PrefixWrite(ByteBuffer[] prefix, long prefixBytes, FileChannel file, long position, int chunk, ByteBuffer pooled) {
        this.buffers = new ByteBuffer[prefix.length + 1];
        System.arraycopy(prefix, 0, buffers, 0, prefix.length);
        this.file = file;
        this.position = position;
        this.size = prefixBytes + chunk;
        this.chunkBytes = chunk;
        this.lent = pooled;
        buffers[prefix.length] = chunk == 0
                ? null
                : (pooled != null ? pooled.clear().limit(chunk).slice() : ByteBuffer.allocate(chunk)).limit(0);
    }

    /**
     * Whether a body of {@code count} bytes may go whole with {@code prefixBytes} of prefix (Selection's
     * row decides whether it does): up to {@link #WHOLE_BODY_BYTES}, and all within one step of at
     * most {@code maxStep} bytes, which a rate limit makes small.
     */
    static boolean goesWhole(long prefixBytes, long count, long maxStep) {
        return count <= WHOLE_BODY_BYTES && prefixBytes + count <= maxStep;
    }

    /** Whether the facts' region goes whole with its prefix: the rows that send it so and the native step ask here. */
    static boolean goesWhole(TransferFacts facts) {
        return facts.prefixBytes() > 0
                && facts.prefixChunk() == 0
                && goesWhole(facts.prefixBytes(), facts.count(), facts.maxStep());
    }

    /**
     * The file bytes to gather with {@code prefixBytes} of prefix ahead of a strategy's step, for a
     * body of {@code count}: none for a body that may go whole (it does, or the strategy sends it
     * all), nor where prefix and chunk would not fit one step of {@code maxStep} bytes (a rate
     * limit's); to a loopback peer whose MSS is {@code segment}, what fills the prefix's last
     * segment, up to a segment held until written, since a runt is acknowledged late
     * (docs/header-body.md); else {@link #FIRST_CHUNK_BYTES}.
     */
    static int chunkBytes(long prefixBytes, long count, int segment, long maxStep) {
        return goesWhole(prefixBytes, count, maxStep) ? 0 : startBytes(prefixBytes, count, segment, maxStep);
    }

    /** As {@link #chunkBytes}, for any body: what a strategy chosen to send all of it (forced, say) leaves. */
    static int startBytes(long prefixBytes, long count, int segment, long maxStep) {
        int chunk = segment > 0 ? segment - (int) (prefixBytes % segment) : FIRST_CHUNK_BYTES;
        return prefixBytes + chunk > maxStep ? 0 : (int) Math.min(chunk, count);
    }

    /** The caller's prefix bytes, or 0 for none. */
    static long prefixBytes(ByteBuffer[] prefix) {
        return remaining(prefix, 0, prefix.length);
    }

    /** The bytes left in {@code buffers} from {@code from} to {@code to}. */
    private static long remaining(ByteBuffer[] buffers, int from, int to) {
        long bytes = 0;
        for (int i = from; i < to; i++) {
            bytes += buffers[i].remaining();
        }
        return bytes;
    }

    /** Prefix plus file bytes. */
    long size() {
        return size;
    }

    /**
     * Writes what the target takes of the rest, at most {@code maxBytes}: one gathering write where
     * the target gathers, more than one buffer has bytes left and all of them fit, else a plain write
     * of the next buffer. Short counts are normal.
     */
    long write(WritableByteChannel target, long maxBytes) throws IOException {
        if (!readChunk()) {
            throw new EOFException("the file ended before " + chunkBytes + " bytes after position " + position);
        }
        while (first < buffers.length && (buffers[first] == null || !buffers[first].hasRemaining())) {
            first++;
        }
        if (first == buffers.length) {
            return 0;
        }
        int last = buffers[buffers.length - 1] == null ? buffers.length - 1 : buffers.length;
        long written = target instanceof GatheringByteChannel
                        && last - first > 1
                        && remaining(buffers, first, last) <= maxBytes
                ? ((GatheringByteChannel) target).write(buffers, first, last - first)
                : Writes.atMost(target, buffers[first], maxBytes); // the JDK's plain write is the cheaper call
        while (first < last && !buffers[first].hasRemaining()) {
            first++;
        }
        if (first == last) {
            Arrays.fill(buffers, null); // all written: let the chunk and the caller's buffers go
            release();
        } else if (lent != null) {
            // a short write: what is left waits in a heap buffer, so a slow peer holds none of the pool's
            ByteBuffer rest = buffers[buffers.length - 1];
            buffers[buffers.length - 1] =
                    ByteBuffer.allocate(rest.remaining()).put(rest).flip();
            release();
        }
        return written;
    }

    /** Gives the pool's buffer back, once; the chunk is not read or written after this. */
    void release() {
        ByteBuffer b = lent;
        lent = null;
        DirectBuffers.giveBack(b);
    }

    /**
     * Reads the file's bytes of the prefix, once, at explicit positions (the channel's own is left
     * alone); the verb calls it before the transfer starts when they are the whole body, so that it
     * is also the check that the slice can be read. False if the file ended first (then it reads
     * again on the next call).
     */
    boolean readChunk() throws IOException {
        ByteBuffer chunk = buffers[buffers.length - 1];
        if (chunk == null || chunk.limit() != 0) {
            return true;
        }
        chunk.limit(chunk.capacity());
        while (chunk.hasRemaining()) {
            if (file.read(chunk, position + chunk.position()) < 0) {
                chunk.limit(0);
                return false;
            }
        }
        chunk.flip();
        return true;
    }

    @Override
    public String toString() {
        return "prefix of " + (size - chunkBytes) + " bytes with the first " + chunkBytes + " of the file";
    }
}
