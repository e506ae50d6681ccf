package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.FileChannel;
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
 * Immutable; one per transfer.
 */
final class TransferFacts {
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    /**
     * Most bytes one step is asked for, below the platform's per-call cap: 64 MiB. Progress
     * callbacks, the interrupt check and the stall clock run between steps, and one blocking
     * {@code sendfile} of 2 GiB would leave them silent for a second or more; at 64 MiB they run
     * every few tens of milliseconds, for 16 extra system calls per GiB.
     */
    static final long MAX_STEP_BYTES = 64L * 1024 * 1024;

    private final TransferRequest request;
    private final Peers.Peer peer;
    private final Platform platform;
    private final int bufferSize;
    private final long mappedWindow;
    private final boolean sourceDirectIo;
    private final boolean sourceStream;
    private final boolean targetStream;
    private final boolean sourceNonBlocking;
    private final boolean targetNonBlocking;
    /** For the reason's words alone: no step decides by it (see the class description). */
    private final boolean openedOnVirtualThread;
    /** The kernel path {@code transferTo} takes from a file to this target, or null. */
    private final String directPath;
    /** The file whose size tells a truncation (the source, or the file behind a slice view), or null. */
    private final FileChannel sourceFile;

    private final long sourceEnd;
    /** The caller's prefix bytes written before the slice (a {@link FileRegion}'s), or 0. */
    private final long prefixBytes;
    /** The file bytes before the slice that go out with the prefix (its first chunk), or 0. */
    private final int prefixChunk;
    /** The most bytes one step moves, the prefix's included ({@link #maxStep(TransferOptions, Platform)}). */
    private final long maxStep;

    /**
     * The facts of {@code request}, its target's peer already read; a file region's request follows
     * {@code prefixBytes} of the caller's prefix and the region's first {@code prefixChunk} bytes,
     * which go out with the prefix (both 0 without one). A verb's facts come from {@link #complete}.
     */
    TransferFacts(
            TransferRequest request,
            Peers.Peer peer,
            TransferOptions options,
            Platform platform,
            boolean sourceDirectIo,
            long prefixBytes,
            int prefixChunk) {
        if (sourceDirectIo && request.sourceKind() != ChannelKind.FILE) {
            throw new IllegalArgumentException("sourceDirectIo: true (expected: only for a FILE source)");
        }
        this.request = request;
        this.peer = peer;
        this.platform = platform;
        this.bufferSize = options.bufferSize();
        this.mappedWindow = options.mappedWindow();
        this.sourceDirectIo = sourceDirectIo;
        this.prefixBytes = prefixBytes;
        this.prefixChunk = prefixChunk;
        this.maxStep = maxStep(options, platform);
        this.sourceStream = ChannelKinds.isStream(request.source());
        this.targetStream = ChannelKinds.isStream(request.target());
        this.sourceNonBlocking = request.sourceNonBlocking();
        this.targetNonBlocking = request.targetNonBlocking();
        this.openedOnVirtualThread = TransferFacts.currentThreadIsVirtual();
        this.directPath = request.sourceKind() == ChannelKind.FILE
                ? platform.directTransferPath(request.targetKind(), targetNonBlocking)
                        .orElse(null)
                : null;
        if (request.sourceKind() == ChannelKind.FILE) {
            this.sourceFile = request.sourceFile();
            this.sourceEnd = request.position() + request.count();
        } else if (request.source() instanceof FileSliceChannel) {
            this.sourceFile = ((FileSliceChannel) request.source()).file();
            this.sourceEnd = ((FileSliceChannel) request.source()).end();
        } else {
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
     * The facts of the request {@code builder} holds, completed with {@code target} and both ends'
     * modes checked ({@link ChannelKinds#requireModes}): what a verb's transfer is chosen from.
     *
     * @param peer where {@code target}'s peer is, read once by the caller
     */
    static TransferFacts complete(
            TransferRequest.Builder builder,
            WritableByteChannel target,
            Peers.Peer peer,
            TransferOptions options,
            Platform platform,
            boolean sourceDirectIo,
            long prefixBytes,
            int prefixChunk)
            throws IOException {
        TransferRequest request =
                builder.target(target, ChannelKinds.of(target)).build();
        ChannelKinds.requireModes(request);
        return new TransferFacts(request, peer, options, platform, sourceDirectIo, prefixBytes, prefixChunk);
    }

    TransferRequest request() {
        return request;
    }

    ChannelKind sourceKind() {
        return request.sourceKind();
    }

    ChannelKind targetKind() {
        return request.targetKind();
    }

    Platform platform() {
        return platform;
    }

    /** The size of copy buffers the caller asked for, in bytes. */
    int bufferSize() {
        return bufferSize;
    }

    /** The largest region of a file to map at once, in bytes. */
    long mappedWindow() {
        return mappedWindow;
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
        return maxStep;
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

    /** Whether the target is a socket whose peer is on this host. */
    boolean peerOnThisHost() {
        return peer.onThisHost;
    }

    /** The target connection's segment size when it is a Linux loopback one, else 0. */
    int segmentSize() {
        return peer.segmentSize;
    }

    /** The kernel path {@code transferTo} takes from this FILE source to this target, or null for none. */
    String directPath() {
        return directPath;
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
        return request.sourceKind() == ChannelKind.FILE
                && request.targetKind() == ChannelKind.SOCKET
                && platform.os() == Platform.OperatingSystem.LINUX;
    }

    /**
     * Whether one {@code advance} may run several steps: the target is non-blocking and the source
     * never blocks (a file, the JDK's or another provider's through a slice view, or a non-blocking
     * channel).
     */
    boolean mayLoop() {
        return targetNonBlocking
                && (request.sourceKind() == ChannelKind.FILE
                        || request.source() instanceof FileSliceChannel
                        || sourceNonBlocking);
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

    /** Whether the calling thread is a virtual thread (Java 21 and later): asked by each step, never stored. */
    static boolean currentThreadIsVirtual() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // before Java 21 every thread is a platform thread
        }
    }

    @Override
    public String toString() {
        return request + (sourceDirectIo ? " (O_DIRECT source)" : "") + (peer.onThisHost ? ", peer on this host" : "");
    }
}
