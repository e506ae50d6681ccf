package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Turns a verb's arguments into a started {@link RealTransfer}: builds the request and its
 * {@link TransferFacts} once, makes the checks that must fail before the first byte
 * ({@link Preflight}), has {@link Selection} choose, and starts the transfer. One per
 * {@link TransferOptions}; immutable and thread-safe.
 */
final class Opener {
    private final TransferOptions options;
    private final Platform platform;
    private final Selection selection;

    Opener(TransferOptions options, Platform platform) {
        this.options = options;
        this.platform = platform;
        this.selection = new Selection(Strategies.registered(), options.strategy().orElse(null), options.excluded());
    }

    /**
     * The whole file at {@code source}, opened now and closed with the transfer. Linux lets a
     * channel open a directory, which fails only when read: the transfer's check of its slice (a
     * read, see {@link #checkedStart}) says so before it starts; an empty one is looked at by path.
     */
    RealTransfer wholeFile(Path source, WritableByteChannel target) throws IOException {
        FileChannel file = FileChannel.open(source, StandardOpenOption.READ);
        try {
            long size = file.size();
            if (size == 0) {
                if (Files.isDirectory(source)) {
                    throw new IOException(source + ": Is a directory");
                }
                return wholeFile(file, 0, target, file);
            }
            return checkedStart(file, 0, size, target, file);
        } catch (IOException | RuntimeException | Error e) {
            try {
                file.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    /** The whole of a file the library opened for reading, whose path said it is no directory. */
    RealTransfer wholeFile(FileChannel file, WritableByteChannel target) throws IOException {
        return wholeFile(file, file.size(), target, null);
    }

    /** {@code owned} is closed with the transfer, if not null. */
    private RealTransfer wholeFile(FileChannel file, long size, WritableByteChannel target, Closeable owned)
            throws IOException {
        ChannelKind kind = ChannelKinds.of(file);
        TransferRequest.Builder request;
        if (size == 0 && kind == ChannelKind.FILE && !ChannelKinds.isEmpty(file)) {
            // procfs, sysfs and friends report 0 and still have content: read to end of stream.
            request = TransferRequest.builder().source(file, ChannelKind.OTHER);
        } else if (kind == ChannelKind.FILE) {
            // opened here for reading, without direct I/O: nothing to probe
            request = TransferRequest.builder().source(file, ChannelKind.FILE).slice(0, size);
        } else {
            request = sliceView(file, 0, size);
        }
        return start(request, false, target, Peers.of(target, platform), null, owned);
    }

    /** {@code count} bytes of a caller's file from {@code position}, arguments checked first. */
    RealTransfer slice(FileChannel source, long position, long count, WritableByteChannel target) throws IOException {
        Preflight.checkSliceArguments(source, position, count, target);
        return checkedStart(source, position, count, target, null);
    }

    /** A caller's file region, its prefix first if it has one, arguments checked first. */
    RealTransfer region(FileRegion region, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(region, "source");
        if (!region.hasPrefix()) {
            return slice(region.file(), region.position(), region.count(), target);
        }
        FileChannel source = region.file();
        long position = region.position();
        long count = region.count();
        ByteBuffer[] header = region.prefixBuffers();
        Preflight.checkSliceArguments(source, position, count, target);
        boolean directIo = directIo(source);
        Peers.Peer peer = Peers.of(target, platform);
        HeaderPrefix prefix = new HeaderPrefix(header, HeaderPrefix.headerBytes(header), source, position,
                directIo ? 0 : count, peer.segmentSize);
        int chunk = prefix.chunkBytes();
        // a body gathered whole is read now, and that read is the check
        Preflight.requireSlice(source, position, count, !probes(source, directIo) ? null
                : chunk == count ? prefix::readChunk : Preflight.lastByte(source, position, count));
        return start(fileSource(source, position + chunk, count - chunk), directIo, target, peer, prefix, null);
    }

    /** A caller's JDK file from {@code start}, its position to be moved past what the transfer moves. */
    RealTransfer fileAt(FileChannel file, long start, long count, WritableByteChannel target) throws IOException {
        return checkedStart(file, start, count, target, null);
    }

    /**
     * A source read as a stream, to its end ({@code count} -1) or for exactly {@code count} bytes;
     * a JDK file channel without a usable size counts as OTHER.
     */
    RealTransfer stream(ReadableByteChannel source, long count, WritableByteChannel target) throws IOException {
        ChannelKind kind = ChannelKinds.of(source);
        TransferRequest.Builder request = TransferRequest.builder()
                .source(source, kind == ChannelKind.FILE ? ChannelKind.OTHER : kind).count(count);
        return start(request, false, target, Peers.of(target, platform), null, null);
    }

    /**
     * Starts a transfer of {@code count} bytes of {@code file} from {@code position}, checked first
     * ({@link Preflight#requireSlice}) with one read before the listener hears of it. When the chosen
     * strategy reads the whole slice ahead (a small file to this host), that read is the check;
     * otherwise a one-byte read of the slice's last byte. Either read also tells direct I/O apart: it
     * always fails the JDK's alignment check on a channel opened for it, before any system call, and
     * such a channel is then chosen for again as what it is. Another provider's file is read through
     * a positional view, its size compared.
     *
     * @param owned a file the library opened, closed with the transfer; or null
     */
    private RealTransfer checkedStart(FileChannel file, long position, long count, WritableByteChannel target,
            Closeable owned) throws IOException {
        Peers.Peer peer = Peers.of(target, platform);
        if (ChannelKinds.of(file) != ChannelKind.FILE || count == 0) {
            boolean directIo = directIo(file);
            Preflight.requireSlice(file, position, count, null);
            return start(fileSource(file, position, count), directIo, target, peer, null, owned);
        }
        TransferFacts facts = facts(fileSource(file, position, count), false, target, peer);
        Choice choice;
        try {
            choice = selection.choose(facts);
        } catch (IllegalArgumentException e) {
            // what is wrong with the slice or the channel is said first
            Preflight.requireSlice(file, position, count, Preflight.lastByte(file, position, count));
            throw e;
        }
        try {
            Preflight.requireSlice(file, position, count, () -> {
                int read = choice.readAhead();
                return read == BuiltInStrategy.NO_READ_AHEAD ? Preflight.lastByte(file, position, count).readsLastByte()
                        : read == count;
            });
        } catch (IOException e) {
            choice.release();
            if (!ChannelKinds.isDirectIo(file)) {
                throw e;
            }
            Preflight.requireSlice(file, position, count, null);
            return start(fileSource(file, position, count), true, target, peer, null, owned);
        } catch (RuntimeException | Error e) {
            choice.release();
            throw e;
        }
        return RealTransfer.start(facts, choice, options, null, owned);
    }

    /**
     * Whether a caller's file is a JDK file opened for direct I/O; the probe also makes one opened
     * for writing only throw the JDK's own exception now.
     */
    private static boolean directIo(FileChannel file) {
        return ChannelKinds.of(file) == ChannelKind.FILE && ChannelKinds.isDirectIo(file);
    }

    /** Whether a one-byte read may check a caller's file: a JDK file not opened for direct I/O. */
    private static boolean probes(FileChannel file, boolean directIo) {
        return !directIo && ChannelKinds.of(file) == ChannelKind.FILE;
    }

    private static TransferRequest.Builder fileSource(FileChannel file, long position, long count) {
        return ChannelKinds.of(file) == ChannelKind.FILE
                ? TransferRequest.builder().source(file, ChannelKind.FILE).slice(position, count)
                : sliceView(file, position, count);
    }

    private static TransferRequest.Builder sliceView(FileChannel file, long position, long count) {
        return TransferRequest.builder().source(new FileSliceChannel(file, position, count), ChannelKind.OTHER)
                .count(count);
    }

    /**
     * Checks the request, works out its facts, chooses its strategy and starts it (the listener
     * hears {@code onStart}).
     *
     * @param peer where the target's peer is, read once by the caller
     * @param owned a file the library opened, closed with the transfer; or null
     */
    private RealTransfer start(TransferRequest.Builder builder, boolean directIo, WritableByteChannel target, Peers.Peer peer,
            HeaderPrefix prefix, Closeable owned) throws IOException {
        TransferFacts facts = facts(builder, directIo, target, peer);
        return RealTransfer.start(facts, selection.choose(facts), options, prefix, owned);
    }

    /** Completes and checks the request, and works out its facts. */
    private TransferFacts facts(TransferRequest.Builder builder, boolean directIo, WritableByteChannel target, Peers.Peer peer)
            throws IOException {
        TransferRequest request = builder
                .target(target, ChannelKinds.of(target))
                .build();
        Preflight.requireModes(request);
        return TransferFacts.of(request, peer, options, platform, directIo);
    }

    /** Runs a transfer to its end on the calling thread; returns the bytes moved. */
    long run(RealTransfer transfer) throws IOException {
        return engine(transfer).run();
    }

    /** The blocking loop that runs {@code transfer} with these options. */
    Engine engine(RealTransfer transfer) {
        return new Engine(transfer, options);
    }

    @Override
    public String toString() {
        return "Opener{" + options + ", " + platform + "}";
    }
}
