package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Everything the library needs to know about one transfer, worked out once when it opens and read
 * by selection, the strategy and the engine alike: the request (ends, kinds, slice), the tuning,
 * the platform, whether the source was opened for direct I/O, which end is an adapted stream, the
 * blocking modes, where the peer is and its segment size, which kernel path
 * {@code transferTo} would take, and which file tells a truncation. What depends on the calling
 * thread is not among them: a transfer may be advanced by another thread than the one that opened
 * it, so each step reads its own thread. No other class re-derives any of these: the peer is read once by {@link Peers}, and a
 * source file's kind and direct I/O once by {@link SourceFile}, before the facts are made.
 * Unchanging once made (the request and a slice view are made on first ask, for what needs them);
 * one per transfer, used by one thread at a time.
 */
final class TransferFacts {
    /**
     * Most bytes one step is asked for, below the platform's per-call cap: 64 MiB. Progress
     * callbacks, the interrupt check and the stall clock run between steps, and one blocking
     * {@code sendfile} of 2 GiB would leave them silent for a second or more; at 64 MiB they run
     * every few tens of milliseconds, for 16 extra system calls per GiB.
     */
    static final long MAX_STEP_BYTES = 64L * 1024 * 1024;

    /** The source as a channel; a file read through a slice view gets its view on first ask ({@link #source()}). */
    private ReadableByteChannel source;

    private final ChannelKind sourceKind;
    private final WritableByteChannel target;
    private final ChannelKind targetKind;
    /** Where a FILE source's slice begins (0 for any other source), and its count (-1: to end of stream). */
    private final long position;

    private final long count;
    /** Made on first ask: the library's own strategies read the fields above. */
    private TransferRequest request;

    private final Peers.Peer peer;
    private final Platform platform;
    /** The caller's tuning: buffer size, mapped window, rate limit (see {@link #maxStep()}). */
    private final TransferOptions options;

    private final boolean sourceDirectIo;
    private final boolean sourceStream;
    private final boolean targetStream;
    private final boolean sourceNonBlocking;
    private final boolean targetNonBlocking;
    /** For the reason's words alone: no step decides by it (see the class description). */
    private final boolean openedOnVirtualThread;
    /** The file whose size tells a truncation (the source, or the file behind a slice view), or null. */
    private final FileChannel sourceFile;

    private final long sourceEnd;
    /** The caller's prefix bytes written before the slice (a {@link FileRegion}'s), or 0. */
    private final long prefixBytes;
    /** The file bytes before the slice that go out with the prefix (its first chunk), or 0. */
    private final int prefixChunk;

    /**
     * The facts of {@code request}, its target's peer already read; a file region's request follows
     * {@code prefixBytes} of the caller's prefix and the region's first {@code prefixChunk} bytes,
     * which go out with the prefix (both 0 without one). A verb's facts come from {@link #checked}.
     */
    TransferFacts(
            TransferRequest request,
            Peers.Peer peer,
            TransferOptions options,
            Platform platform,
            boolean sourceDirectIo,
            long prefixBytes,
            int prefixChunk) {
        this(
                request.source(),
                request.sourceKind(),
                request.source() instanceof FileSliceChannel ? ((FileSliceChannel) request.source()).file() : null,
                request.source() instanceof FileSliceChannel
                        ? ((FileSliceChannel) request.source()).end() - request.count()
                        : request.position(),
                request.count(),
                request.target(),
                request.targetKind(),
                peer,
                options,
                platform,
                sourceDirectIo,
                prefixBytes,
                prefixChunk);
        this.request = request;
    }

    /**
     * {@code source} read as {@code sourceKind}, or with {@code source} null a slice of {@code file}
     * read through a view ({@link FileSliceChannel}, made when first asked for).
     */
    private TransferFacts(
            ReadableByteChannel source,
            ChannelKind sourceKind,
            FileChannel file,
            long position,
            long count,
            WritableByteChannel target,
            ChannelKind targetKind,
            Peers.Peer peer,
            TransferOptions options,
            Platform platform,
            boolean sourceDirectIo,
            long prefixBytes,
            int prefixChunk) {
        if (sourceDirectIo && sourceKind != ChannelKind.FILE) {
            throw new IllegalArgumentException("sourceDirectIo: true (expected: only for a FILE source)");
        }
        this.source = source;
        this.sourceKind = sourceKind;
        this.target = target;
        this.targetKind = targetKind;
        this.count = count;
        this.peer = peer;
        this.platform = platform;
        this.options = options;
        this.sourceDirectIo = sourceDirectIo;
        this.prefixBytes = prefixBytes;
        this.prefixChunk = prefixChunk;
        this.sourceStream = ChannelKinds.isStream(source);
        this.targetStream = ChannelKinds.isStream(target);
        this.sourceNonBlocking = isNonBlocking(source);
        this.targetNonBlocking = isNonBlocking(target);
        this.openedOnVirtualThread = Platform.currentThreadIsVirtual();
        if (sourceKind == ChannelKind.FILE) {
            this.position = position;
            this.sourceFile = (FileChannel) source;
            this.sourceEnd = position + count;
        } else if (file != null) {
            this.position = 0;
            this.sourceFile = file;
            this.sourceEnd = position + count;
        } else {
            this.position = 0;
            this.sourceFile = null;
            this.sourceEnd = -1;
        }
    }

    /**
     * The facts of a bare request, as a strategy author's test makes it: default tuning, this
     * platform, no direct I/O, the target's peer read now.
     */
    static TransferFacts of(TransferRequest request) {
        Platform platform = Platform.current();
        return new TransferFacts(
                request, Peers.of(request.target(), platform), TransferOptions.defaults(), platform, false, 0, 0);
    }

    /**
     * The facts of a verb's transfer, both ends' modes checked ({@link ChannelKinds#requireModes}):
     * {@code source} read as {@code kind}, or with {@code source} null {@code count} bytes of
     * {@code file} from {@code position} read through a slice view; a region's body follows its
     * prefix as for the constructor.
     *
     * @param peer where {@code target}'s peer is, read once by the caller
     */
    static TransferFacts checked(
            ReadableByteChannel source,
            ChannelKind kind,
            FileChannel file,
            long position,
            long count,
            WritableByteChannel target,
            Peers.Peer peer,
            TransferOptions options,
            Platform platform,
            boolean sourceDirectIo,
            long prefixBytes,
            int prefixChunk)
            throws IOException {
        ChannelKind targetKind = ChannelKinds.of(target);
        ChannelKinds.requireModes(source != null ? source : file, target, targetKind);
        return new TransferFacts(
                source,
                kind,
                file,
                position,
                count,
                target,
                targetKind,
                peer,
                options,
                platform,
                sourceDirectIo,
                prefixBytes,
                prefixChunk);
    }

    /** The request these facts describe, as a registered strategy, a log line and a failure's words see it. */
    TransferRequest request() {
        if (request == null) {
            TransferRequest.Builder b = TransferRequest.builder().target(target, targetKind);
            request = sourceKind == ChannelKind.FILE
                    ? b.source(source, sourceKind).slice(position, count).build()
                    : b.source(source(), sourceKind).count(count).build();
        }
        return request;
    }

    /** The source as a channel; a file read through a slice view gets its view now, once. */
    ReadableByteChannel source() {
        if (source == null) {
            source = new FileSliceChannel(sourceFile, sourceEnd - count, count);
        }
        return source;
    }

    /** Whether the source is open, asked of the file behind a slice view without making the view. */
    boolean sourceIsOpen() {
        return source != null ? source.isOpen() : sourceFile.isOpen();
    }

    WritableByteChannel target() {
        return target;
    }

    /** Where a FILE source's slice begins; 0 for any other source. */
    long position() {
        return position;
    }

    /** The bytes to move, or -1 for a source read to its end of stream. */
    long count() {
        return count;
    }

    /** All the transfer moves, the prefix and the bytes that go with it included; -1 to end of stream. */
    long totalCount() {
        return count < 0 ? -1 : prefixBytes + prefixChunk + count;
    }

    /** Where the bytes of {@link #truncatableFile()} this transfer reads begin. */
    long truncatableStart() {
        return sourceEnd - count;
    }

    private static boolean isNonBlocking(Channel channel) {
        return channel instanceof SelectableChannel && !((SelectableChannel) channel).isBlocking();
    }

    ChannelKind sourceKind() {
        return sourceKind;
    }

    ChannelKind targetKind() {
        return targetKind;
    }

    Platform platform() {
        return platform;
    }

    /** The size of copy buffers the caller asked for, in bytes. */
    int bufferSize() {
        return options.bufferSize();
    }

    /** The largest region of a file to map at once, in bytes. */
    long mappedWindow() {
        return options.mappedWindow();
    }

    /** Whether the source is the library's adapter of an {@code InputStream}. */
    boolean sourceIsStream() {
        return sourceStream;
    }

    /** Whether the target is the library's adapter of an {@code OutputStream}. */
    boolean targetIsStream() {
        return targetStream;
    }

    /** Whether the source is a selectable channel in non-blocking mode. */
    boolean sourceNonBlocking() {
        return sourceNonBlocking;
    }

    /** Whether the target is a selectable channel in non-blocking mode. */
    boolean targetNonBlocking() {
        return targetNonBlocking;
    }

    /** Whether the FILE source was opened for direct I/O. */
    boolean sourceDirectIo() {
        return sourceDirectIo;
    }

    /** The caller's prefix bytes written before the slice, or 0 without a prefix. */
    long prefixBytes() {
        return prefixBytes;
    }

    /** The region's first bytes that go out with the prefix, before the slice, or 0. */
    int prefixChunk() {
        return prefixChunk;
    }

    /** The most bytes one step moves, the prefix's included. */
    long maxStep() {
        return maxStep(options, platform);
    }

    /**
     * The most bytes one step moves under {@code options} on {@code platform}:
     * {@link #MAX_STEP_BYTES} within the platform's per-call cap, and under a rate limit a tenth of a
     * second's worth (at least a byte), so that pacing stays smooth.
     */
    static long maxStep(TransferOptions options, Platform platform) {
        long cap = Math.min(MAX_STEP_BYTES, platform.maxBytesPerCall());
        return options.rateLimit() == 0 ? cap : Math.max(1, Math.min(cap, options.rateLimit() / 10));
    }

    /** Where the target's peer is: {@link Peers.Peer#ELSEWHERE} for anything but a connected socket. */
    Peers.Peer peer() {
        return peer;
    }

    /** The target connection's segment size when it is a Linux loopback one, else 0. */
    int segmentSize() {
        return peer.segmentSize;
    }

    /** The kernel path {@code transferTo} takes from this FILE source to this target, or null for none. */
    String directPath() {
        return sourceKind == ChannelKind.FILE
                ? platform.directTransferPath(targetKind, targetNonBlocking).orElse(null)
                : null;
    }

    /**
     * Whether the transfer was opened on a virtual thread: what its reason describes. A step never
     * decides by it; it reads the thread that advances it.
     */
    boolean openedOnVirtualThread() {
        return openedOnVirtualThread;
    }

    /** A file to a JDK socket on Linux: the pair whose default depends on the peer and the thread. */
    boolean fileToSocketOnLinux() {
        return sourceKind == ChannelKind.FILE
                && targetKind == ChannelKind.SOCKET
                && platform.os() == Platform.OperatingSystem.LINUX;
    }

    /**
     * Whether one {@code advance} may run several steps: the target is non-blocking and the source
     * never blocks (a file, the JDK's or another provider's through a slice view, or a non-blocking
     * channel).
     */
    boolean mayLoop() {
        return targetNonBlocking && (sourceFile != null || sourceNonBlocking);
    }

    /** Whether the source file maps at all (some pseudo files, sysfs's, refuse): one byte mapped and released to see. */
    boolean mappable() {
        try {
            Mappings.mapReadOnly(sourceFile, truncatableStart(), 1).unmap().run();
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the source is a file the library opened natively ({@link NativeFile}), read through a slice view. */
    boolean nativeSource() {
        return sourceFile instanceof NativeFile;
    }

    /** The file whose size tells a truncation, or null when the source is no file. */
    FileChannel truncatableFile() {
        return sourceFile;
    }

    /** Where the bytes of {@link #truncatableFile()} this transfer reads end. */
    long truncatableEnd() {
        return sourceEnd;
    }

    @Override
    public String toString() {
        return request()
                + (sourceDirectIo ? " (O_DIRECT source)" : "")
                + (peer.onThisHost ? ", peer on this host" : "");
    }
}
