package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The {@code native} strategy's small send without a transfer around it: a file opened natively
 * whose body goes in one read ({@link #limit}), into a JDK socket where nothing watches
 * ({@link RealTransfer#unobserved}). One {@code pread} into a pooled direct buffer, then the
 * socket's own writes, gathering the prefix if there is one: the calls the transfer makes, without
 * the request, facts, choice, transfer and engine it builds first, which cost a small file more
 * than its calls do (docs/fixed-cost.md). A blocking verb sends it whole here ({@code copy});
 * {@code Transfers.open} hands it to the caller as a {@link SmallTransfer} ({@code open}). The
 * blocking verbs keep their own loop: driving a {@code SmallTransfer} to its end cost them 3-6% of a
 * 4 KiB copy here.
 *
 * <p>It fails as the transfer would, with the count ({@link TransferFailures}). Where it cannot be
 * sure of that before the first byte (the file reads short or fails, the pool is spent, a blocking
 * verb's thread is interrupted, the target is closed) it sends nothing and declines, and the
 * transfer runs instead.
 */
final class SmallSend {
    /** What a blocking verb's send returns when it sent nothing and the transfer must run. */
    static final long DECLINED = -1;

    private static final ByteBuffer[] NO_PREFIX = {};

    private final TransferOptions options;
    private final Platform platform;
    private final Selection selection;

    /** Small sends with these options, each as the transfer it stands in for would be. */
    SmallSend(TransferOptions options, Platform platform, Selection selection) {
        this.options = options;
        this.platform = platform;
        this.selection = selection;
    }

    /**
     * The largest body a small send takes into {@code target}: what may go natively
     * ({@code nativeLimit}, from {@link Selection#nativeLimit}), at most what the table sends by one
     * read into this socket ({@link NativeStrategy#readMax}, with a prefix {@link PrefixWrite#WHOLE_BODY_BYTES}) in
     * one of the pool's usual buffers; 0 where it takes none: the target is not a JDK socket (for a
     * blocking verb, a blocking one), or something watches the transfer.
     *
     * @param blockingVerb whether the caller sends it whole on this thread, which it can only do
     *     into a blocking socket
     */
    long limit(long nativeLimit, boolean withPrefix, WritableByteChannel target, boolean blockingVerb) {
        if (nativeLimit <= 0
                || options.bufferSize() > BufferedStrategy.SHARED_SIZE_LIMIT
                || target == null
                || ChannelKinds.of(target) != ChannelKind.SOCKET
                || (blockingVerb && !((SocketChannel) target).isBlocking())
                || !RealTransfer.unobserved(options)) {
            return 0;
        }
        long oneRead = withPrefix
                ? PrefixWrite.WHOLE_BODY_BYTES
                : NativeStrategy.readMax(ChannelKind.SOCKET, Peers.of(target, platform).onThisHost);
        return Math.min(Math.min(nativeLimit, oneRead), options.bufferSize());
    }

    /** Whether a body of {@code count} bytes is one a small send may take at all: 1 byte to one read's worth into a socket. */
    static boolean fits(long count, boolean withPrefix) {
        return count > 0 && count <= (withPrefix ? PrefixWrite.WHOLE_BODY_BYTES : Selection.LOCAL_READ_MAX_BYTES);
    }

    /**
     * Sends the whole of a regular file opened natively from {@code path} on this thread, for a
     * blocking verb, and closes it; or {@link #DECLINED}, the file left open for the transfer.
     *
     * @param nativeLimit what may go natively into {@code target} ({@link Selection#nativeLimit})
     * @throws TransferException what the transfer would throw, with the count
     */
    long copy(NativeFile opened, Path path, long nativeLimit, WritableByteChannel target) throws IOException {
        long size = wholeFile(opened, nativeLimit, target, true);
        return size > 0 ? send(opened, 0, size, NO_PREFIX, target, path) : DECLINED;
    }

    /**
     * The whole of a regular file opened natively from {@code path}, read and ready for the caller
     * to send, closed with the send; or null, the file left open for the transfer.
     *
     * @param nativeLimit what may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    SmallTransfer open(NativeFile opened, Path path, long nativeLimit, WritableByteChannel target) throws IOException {
        long size = wholeFile(opened, nativeLimit, target, false);
        return size > 0 ? read(opened, 0, size, NO_PREFIX, target, path) : null;
    }

    /**
     * The size of a regular file opened natively that a small send takes whole; 0 where it takes
     * none (the transfer also reports a closed target in its own words).
     */
    private long wholeFile(NativeFile opened, long nativeLimit, WritableByteChannel target, boolean blockingVerb)
            throws IOException {
        BasicFileAttributes attributes = opened.attributes();
        long size = attributes.size();
        return attributes.isRegularFile() && size <= limit(nativeLimit, false, target, blockingVerb) && target.isOpen()
                ? size
                : 0;
    }

    /** As {@link #copy(FileRegion, long, WritableByteChannel)}, with what the selection lets go natively. */
    long copy(FileRegion region, WritableByteChannel target) throws IOException {
        return takes(region) ? copy(region, selection.nativeLimit(region.hasPrefix(), target), target) : DECLINED;
    }

    /**
     * Sends a region of a file opened natively, its prefix first, on this thread, for a blocking
     * verb; or {@link #DECLINED}.
     *
     * @param nativeLimit what of the file may go natively into {@code target} ({@link Selection#nativeLimit})
     * @throws TransferException what the transfer would throw, with the count
     */
    long copy(FileRegion region, long nativeLimit, WritableByteChannel target) throws IOException {
        return takes(region, nativeLimit, target, true)
                ? send(
                        (NativeFile) region.file(),
                        region.position(),
                        region.count(),
                        region.prefixBuffers(),
                        target,
                        null)
                : DECLINED;
    }

    /** As {@link #open(FileRegion, long, WritableByteChannel)}, with what the selection lets go natively. */
    SmallTransfer open(FileRegion region, WritableByteChannel target) throws IOException {
        return takes(region) ? open(region, selection.nativeLimit(region.hasPrefix(), target), target) : null;
    }

    /**
     * A region of a file opened natively, read and ready for the caller to send after its prefix;
     * or null.
     *
     * @param nativeLimit what of the file may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    SmallTransfer open(FileRegion region, long nativeLimit, WritableByteChannel target) throws IOException {
        return takes(region, nativeLimit, target, false)
                ? read(
                        (NativeFile) region.file(),
                        region.position(),
                        region.count(),
                        region.prefixBuffers(),
                        target,
                        null)
                : null;
    }

    /** Whether a region may be a small send at all: its file opened natively, its body one read's worth. */
    private static boolean takes(FileRegion region) {
        Objects.requireNonNull(region, "source");
        // a larger body goes straight to the transfer, which asks the selection itself
        return region.file() instanceof NativeFile && fits(region.count(), region.hasPrefix());
    }

    /**
     * Whether a small send takes a region of a file opened natively into {@code target}; a region
     * it takes has its arguments checked first, as the transfer checks them.
     */
    private boolean takes(FileRegion region, long nativeLimit, WritableByteChannel target, boolean blockingVerb)
            throws IOException {
        long count = region.count();
        if (count <= 0 || count > limit(nativeLimit, region.hasPrefix(), target, blockingVerb)) {
            return false; // the transfer checks the arguments
        }
        Preflight.checkSliceArguments(region.file(), region.position(), count, target);
        return true;
    }

    /**
     * Reads {@code count} bytes of {@code file} from {@code position} into one of the pool's
     * buffers, behind the caller's {@code prefix}; null, having read or taken nothing, where the
     * file ends first or fails (the transfer reads again and fails as it fails) or the pool is spent.
     *
     * @param count at least 1, at most {@link #limit}
     * @param path where the file was opened from, to be closed with the send; else null
     */
    private SmallTransfer read(
            NativeFile file, long position, long count, ByteBuffer[] prefix, WritableByteChannel target, Path path) {
        ByteBuffer body = DirectBuffers.SHARED.acquire(options.bufferSize()); // the buffered strategy's usual size
        if (body == null) {
            return null;
        }
        PrefixWrite write = new PrefixWrite(prefix, PrefixWrite.prefixBytes(prefix), file, position, (int) count, body);
        boolean read;
        try {
            read = write.readChunk();
        } catch (IOException e) {
            read = false;
        }
        if (!read) {
            write.release();
            return null;
        }
        return new SmallTransfer(this, file, position, write, (SocketChannel) target, path);
    }

    /**
     * Sends {@code count} bytes of {@code file} from {@code position}, after the caller's
     * {@code prefix} (empty for none; consumed as a gathering write consumes it), into
     * {@code target}; returns the bytes sent, prefix included, or {@link #DECLINED} having sent
     * nothing. A file opened from {@code path} (else null) is closed unless the send declined.
     * An interrupt between two writes ends it as it ends the transfer between two steps.
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
                long prefixBytes = PrefixWrite.prefixBytes(prefix);
                return new TransferFailures(
                        facts(file, position, count, prefixBytes, target),
                        NativeStrategy.NAME,
                        prefixBytes + count,
                        path);
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
            if (prefix.length > 0) {
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

    /** The facts of the transfer a small send stands in for: worked out only when asked. */
    TransferFacts facts(NativeFile file, long position, long count, long prefixBytes, WritableByteChannel target) {
        TransferRequest request = Opener.fileSource(SourceFile.callers(file), position, count)
                .target(target, ChannelKinds.of(target))
                .build();
        return TransferFacts.afterPrefix(request, Peers.of(target, platform), options, platform, false, prefixBytes, 0);
    }

    /**
     * What the selection chooses for {@code facts}, taking nothing: why the small send is
     * {@code native}. The operators' properties are left out: they may have changed since it was
     * sent, and without them a file opened natively goes by the row it took.
     */
    Choice choice(TransferFacts facts) {
        Choice choice = selection.choose(facts, null, null);
        choice.release();
        return choice;
    }
}
