package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The {@code native} strategy's small send without a transfer around it: a file opened natively
 * whose body goes in one read ({@link #limit}), sent whole by a blocking verb into a blocking JDK
 * socket where nothing watches ({@link RealTransfer#unobserved}). One {@code pread} into a pooled
 * direct buffer, then the socket's own writes, gathering the prefix if there is one: the calls the
 * transfer makes, without the request, facts, choice, transfer and engine it builds first, which
 * cost a small file more than its calls do (docs/fixed-cost.md).
 *
 * <p>It fails as the transfer would, with the count ({@link TransferFailures}). Where it cannot be
 * sure of that before the first byte (the file reads short or fails, the pool is spent, the thread
 * is interrupted, the target is closed) it sends nothing and {@linkplain #DECLINED declines}, and
 * the transfer runs instead. An interrupt between two writes ends it as it ends the transfer
 * between two steps.
 */
final class SmallSend {
    /** What {@link #send} returns when it sent nothing and the transfer must run. */
    static final long DECLINED = -1;

    private final TransferOptions options;
    private final Platform platform;

    /** Small sends with these options, each as the transfer it stands in for would be. */
    SmallSend(TransferOptions options, Platform platform) {
        this.options = options;
        this.platform = platform;
    }

    /**
     * The largest body a small send takes into {@code target}: what may go natively
     * ({@code nativeLimit}, from {@link Selection#nativeLimit}), at most one read's worth
     * ({@link Selection#NATIVE_MAX_BYTES}, with a prefix {@link PrefixWrite#WHOLE_BODY_BYTES}) in
     * one of the pool's usual buffers; 0 where it takes none: the target is not a blocking JDK
     * socket, or something watches the transfer.
     */
    long limit(long nativeLimit, boolean withPrefix, WritableByteChannel target) {
        if (nativeLimit <= 0
                || options.bufferSize() > BufferedStrategy.SHARED_SIZE_LIMIT
                || target == null
                || ChannelKinds.of(target) != ChannelKind.SOCKET
                || !((SocketChannel) target).isBlocking()
                || !RealTransfer.unobserved(options)) {
            return 0;
        }
        return Math.min(Math.min(nativeLimit, oneRead(withPrefix)), options.bufferSize());
    }

    /** Whether a body of {@code count} bytes is one a small send may take at all: 1 byte to one read's worth. */
    static boolean fits(long count, boolean withPrefix) {
        return count > 0 && count <= oneRead(withPrefix);
    }

    private static long oneRead(boolean withPrefix) {
        return withPrefix ? PrefixWrite.WHOLE_BODY_BYTES : Selection.NATIVE_MAX_BYTES;
    }

    /**
     * Sends the whole of a regular file opened natively from {@code path}, and closes it; or
     * {@link #DECLINED}, the file left open for the transfer (which also reports a closed target in
     * its own words).
     *
     * @param nativeLimit what may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    long wholeFile(NativeFile opened, Path path, long nativeLimit, WritableByteChannel target) throws IOException {
        BasicFileAttributes attributes = opened.attributes();
        long size = attributes.size();
        return attributes.isRegularFile() && size > 0 && size <= limit(nativeLimit, false, target) && target.isOpen()
                ? send(opened, 0, size, null, target, path)
                : DECLINED;
    }

    /**
     * Sends a region of a file opened natively, its prefix first; or {@link #DECLINED}. A region
     * it takes has its arguments checked first, as the transfer checks them.
     *
     * @param nativeLimit what of the file may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    long region(FileRegion region, long nativeLimit, WritableByteChannel target) throws IOException {
        NativeFile file = (NativeFile) region.file();
        long count = region.count();
        if (count <= 0 || count > limit(nativeLimit, region.hasPrefix(), target)) {
            return DECLINED; // the transfer checks the arguments
        }
        Preflight.checkSliceArguments(file, region.position(), count, target);
        return send(file, region.position(), count, region.hasPrefix() ? region.prefixBuffers() : null, target, null);
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position}, after the caller's
     * {@code prefix} (null for none; consumed as a gathering write consumes it), into
     * {@code target}; returns the bytes sent, prefix included, or {@link #DECLINED} having sent
     * nothing. A file opened from {@code path} (else null) is closed unless the send declined.
     *
     * @param count at least 1, at most {@link #limit}
     * @throws TransferException what the transfer would throw, with the count
     */
    private long send(
            NativeFile file, long position, long count, ByteBuffer[] prefix, WritableByteChannel target, Path path)
            throws IOException {
        long sent;
        try {
            sent = send(file, position, (int) count, prefix, (SocketChannel) target, () -> {
                long prefixBytes = prefix == null ? 0 : PrefixWrite.prefixBytes(prefix);
                TransferRequest request = Opener.fileSource(SourceFile.callers(file), position, count)
                        .target(target, ChannelKinds.of(target))
                        .build();
                TransferFacts facts = TransferFacts.afterPrefix(
                        request, Peers.of(target, platform), options, platform, false, prefixBytes, 0);
                return new TransferFailures(facts, NativeStrategy.NAME, prefixBytes + count, path);
            });
        } catch (IOException | RuntimeException | Error e) {
            if (path != null) {
                RealTransfer.closeQuietly(file, e instanceof TransferException ? (TransferException) e : null);
            }
            throw e;
        }
        if (path != null && sent != DECLINED) {
            RealTransfer.closeQuietly(file, null);
        }
        return sent;
    }

    /** The failures the transfer would throw, worked out only when the send fails. */
    private interface Failures {
        TransferFailures get();
    }

    private long send(
            NativeFile file, long position, int count, ByteBuffer[] prefix, SocketChannel target, Failures failures)
            throws IOException {
        ByteBuffer body = DirectBuffers.SHARED.acquire(options.bufferSize()); // the buffered strategy's usual size
        if (body == null) {
            return DECLINED;
        }
        long moved = 0;
        try {
            if (!readWhole(file, position, body.limit(count))) {
                return DECLINED;
            }
            ByteBuffer[] all = null;
            if (prefix != null) {
                all = new ByteBuffer[prefix.length + 1];
                System.arraycopy(prefix, 0, all, 0, prefix.length);
                all[prefix.length] = body;
            }
            while (body.hasRemaining()) { // the body goes last: when it is out, so is the prefix
                if (Thread.currentThread().isInterrupted()) {
                    if (moved == 0) {
                        return DECLINED; // the transfer reports it, in its words
                    }
                    throw failures.get().interrupted(moved);
                }
                moved += all == null ? target.write(body) : target.write(all);
            }
            return moved;
        } catch (IOException | RuntimeException | Error e) {
            TransferException failure = failures.get().of(e, moved);
            if (e instanceof Error && !(failure instanceof TruncatedSourceException)) {
                throw (Error) e;
            }
            throw failure;
        } finally {
            DirectBuffers.giveBack(body);
        }
    }

    /** Reads {@code buffer}'s remaining bytes at {@code position}; false, having failed or found the end first. */
    private static boolean readWhole(NativeFile file, long position, ByteBuffer buffer) {
        try {
            while (buffer.hasRemaining()) {
                if (file.read(buffer, position + buffer.position()) < 0) {
                    return false;
                }
            }
        } catch (IOException e) {
            return false; // the transfer reads again, and fails as it fails
        }
        buffer.flip();
        return true;
    }
}
