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
 * than its calls do (docs/fixed-cost.md). A blocking verb sends it whole here ({@link #sendAll});
 * {@code Transfers.open} hands it to the caller as a {@link SmallTransfer}.
 *
 * <p>It fails as the transfer would, with the count ({@link TransferFailures}). Where it cannot be
 * sure of that before the first byte (the file reads short or fails, the pool is spent, a blocking
 * verb's thread is interrupted, the target is closed) it sends nothing and declines, and the
 * transfer runs instead.
 */
final class SmallSend {
    /** What {@link #sendAll} returns when it sent nothing and the transfer must run. */
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
     * ({@code nativeLimit}, from {@link Selection#nativeLimit}), at most one read's worth
     * ({@link Selection#NATIVE_MAX_BYTES}, with a prefix {@link PrefixWrite#WHOLE_BODY_BYTES}) in
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
     * The whole of a regular file opened natively from {@code path}, read and ready to send, closed
     * with the send; or null, the file left open for the transfer (which also reports a closed
     * target in its own words).
     *
     * @param nativeLimit what may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    SmallTransfer wholeFile(
            NativeFile opened, Path path, long nativeLimit, WritableByteChannel target, boolean blockingVerb)
            throws IOException {
        BasicFileAttributes attributes = opened.attributes();
        long size = attributes.size();
        return attributes.isRegularFile()
                        && size > 0
                        && size <= limit(nativeLimit, false, target, blockingVerb)
                        && target.isOpen()
                ? read(opened, 0, size, NO_PREFIX, target, path)
                : null;
    }

    /** A region's small send where the region's file was opened natively and the selection lets it go so; else null. */
    SmallTransfer region(FileRegion region, WritableByteChannel target, boolean blockingVerb) throws IOException {
        Objects.requireNonNull(region, "source");
        // a larger body goes straight to the transfer, which asks the selection itself
        return region.file() instanceof NativeFile && fits(region.count(), region.hasPrefix())
                ? region(region, selection.nativeLimit(region.hasPrefix(), target), target, blockingVerb)
                : null;
    }

    /**
     * A region of a file opened natively, read and ready to send after its prefix; or null. A
     * region it takes has its arguments checked first, as the transfer checks them.
     *
     * @param nativeLimit what of the file may go natively into {@code target} ({@link Selection#nativeLimit})
     */
    SmallTransfer region(FileRegion region, long nativeLimit, WritableByteChannel target, boolean blockingVerb)
            throws IOException {
        NativeFile file = (NativeFile) region.file();
        long count = region.count();
        if (count <= 0 || count > limit(nativeLimit, region.hasPrefix(), target, blockingVerb)) {
            return null; // the transfer checks the arguments
        }
        Preflight.checkSliceArguments(file, region.position(), count, target);
        return read(
                file, region.position(), count, region.hasPrefix() ? region.prefixBuffers() : NO_PREFIX, target, null);
    }

    /**
     * Sends a small transfer whole on this thread, into its blocking socket; returns the bytes
     * sent, prefix included, or {@link #DECLINED} having sent nothing (also for null). An interrupt
     * between two writes ends it as it ends the transfer between two steps.
     *
     * @throws TransferException what the transfer would throw, with the count
     */
    static long sendAll(SmallTransfer send) throws IOException {
        if (send == null) {
            return DECLINED;
        }
        if (Thread.currentThread().isInterrupted()) {
            send.decline(); // the transfer reports it, in its words
            return DECLINED;
        }
        while (!send.isDone()) {
            send.advance();
        }
        return send.bytesTransferred();
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

    /** The facts of the transfer a small send stands in for: worked out only when asked. */
    TransferFacts facts(NativeFile file, long position, long count, long prefixBytes, WritableByteChannel target) {
        TransferRequest request = Opener.fileSource(SourceFile.callers(file), position, count)
                .target(target, ChannelKinds.of(target))
                .build();
        return TransferFacts.afterPrefix(request, Peers.of(target, platform), options, platform, false, prefixBytes, 0);
    }

    /** What the selection chooses for {@code facts}, taking nothing: why the small send is {@code native}. */
    Choice choice(TransferFacts facts) {
        Choice choice = selection.choose(facts);
        choice.release();
        return choice;
    }
}
