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
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Turns a verb's arguments into a started {@link RealTransfer}: reads the peer once, opens a path's
 * file, makes the checks that must fail before the first byte ({@link Preflight}), has
 * {@link TransferFacts} complete the request, {@link Selection} choose, and starts the transfer.
 * One per {@link TransferOptions}; immutable and thread-safe.
 */
final class Opener {
    private final TransferOptions options;
    private final Platform platform;
    private final Selection selection;

    Opener(TransferOptions options, Platform platform) {
        this.options = options;
        this.platform = platform;
        this.selection =
                new Selection(Strategies.registered(), options.strategy().orElse(null), options.excluded());
    }

    /**
     * The whole file at {@code source}, opened now and closed with the transfer: natively where
     * the options allow it ({@link NativeFiles}), else by the JDK. A regular file opened natively
     * goes as {@link #sourceFile} says, a FIFO through that descriptor ({@link NativeFile#readFifo}),
     * anything else (a directory, a device, a procfs file) through a JDK channel over the same open,
     * as if the JDK had opened it. A directory fails the check of its slice (a read, see
     * {@link #checkedStart}) before the transfer starts; an empty one is looked at by path.
     *
     * @param handedOut whether the transfer goes to the caller ({@code Transfers.open}), who may advance it much later:
     *     checked, and read ahead where its row does, now; a blocking verb's runs at once, unwatched by the cleaner
     */
    RealTransfer wholeFile(Path source, WritableByteChannel target, boolean handedOut) throws IOException {
        Peers.Peer peer = Peers.of(target, platform);
        long nativeLimit = selection.nativeLimit(false, target, peer);
        NativeFile opened = nativeLimit < 0 ? null : NativeFiles.openSource(source, handedOut);
        FileChannel owned = opened;
        try {
            FileChannel file;
            if (opened != null) {
                BasicFileAttributes attributes = opened.attributes();
                long size = attributes.size();
                if (attributes.isRegularFile() && (size > 0 || ChannelKinds.probe(opened, 0) < 0)) {
                    FileChannel jdk = size <= nativeLimit ? null : opened.jdkChannelOrNull();
                    FileChannel read = jdk != null ? jdk : opened;
                    return handedOut
                            ? checkedStart(SourceFile.opened(read), 0, size, target, peer, opened)
                            : start(sliceFacts(SourceFile.opened(read), 0, size, 0, target, peer, 0), opened);
                }
                if (opened.isFifo()) {
                    return stream(opened, SourceFile.opened(opened), -1, target, new OpenedFile(source, opened));
                }
                file = opened.jdkChannel();
            } else {
                file = FileChannel.open(source, StandardOpenOption.READ);
                owned = file;
            }
            long size = file.size();
            if (size == 0) {
                if (Files.isDirectory(source)) {
                    throw new IOException(source + ": Is a directory");
                }
                return wholeFile(SourceFile.opened(file), 0, target, new OpenedFile(source, owned));
            }
            return checkedStart(SourceFile.opened(file), 0, size, target, peer, new OpenedFile(source, owned));
        } catch (IOException | RuntimeException | Error e) {
            if (owned != null) {
                try {
                    owned.close();
                } catch (IOException closeFailure) {
                    e.addSuppressed(closeFailure);
                }
            }
            throw e;
        }
    }

    /** A caller's file as the source of {@code count} bytes: one opened natively as {@link #natively} says. */
    private SourceFile sourceFile(
            FileChannel file, long count, boolean withPrefix, WritableByteChannel target, Peers.Peer peer) {
        return file instanceof NativeFile
                ? natively((NativeFile) file, count, selection.nativeLimit(withPrefix, target, peer))
                : SourceFile.callers(file);
    }

    /**
     * A file opened natively as the source of {@code count} bytes: itself up to {@code limit}
     * ({@link Selection#nativeLimit}), else the JDK channel over the same open; where that reopen
     * fails (no {@code /proc}, permissions changed since the open), itself after all, read with
     * {@code pread} at any size.
     */
    private static SourceFile natively(NativeFile file, long count, long limit) {
        FileChannel jdk = count <= limit ? null : file.jdkChannelOrNull();
        return jdk == null ? SourceFile.callers(file) : SourceFile.opened(jdk);
    }

    /** The whole of a file opened from {@code path}, no directory: closed with the transfer, named in failures. */
    RealTransfer wholeFile(Path path, FileChannel file, WritableByteChannel target) throws IOException {
        return wholeFile(SourceFile.opened(file), file.size(), target, new OpenedFile(path, file));
    }

    /** {@code owned} is closed with the transfer, if not null. */
    private RealTransfer wholeFile(SourceFile file, long size, WritableByteChannel target, Closeable owned)
            throws IOException {
        if (size == 0 && file.jdk && !file.isEmpty()) {
            // procfs, sysfs and friends report 0 and still have content: read to end of stream.
            return stream(file.channel, file, -1, target, owned);
        }
        // opened here for reading, without direct I/O: nothing to check
        return start(sliceFacts(file, 0, size, 0, target, Peers.of(target, platform), 0), owned);
    }

    /** {@code count} bytes of a caller's file from {@code position}, arguments checked first. */
    RealTransfer slice(FileChannel source, long position, long count, WritableByteChannel target) throws IOException {
        Preflight.checkSliceArguments(source, position, count, target);
        return checkedSlice(source, position, count, target);
    }

    /** A caller's slice, its arguments checked already, started as {@link #checkedStart} says. */
    private RealTransfer checkedSlice(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        Peers.Peer peer = Peers.of(target, platform);
        return checkedStart(sourceFile(source, count, false, target, peer), position, count, target, peer, null);
    }

    /**
     * A caller's file region, its prefix first if it has one, arguments checked first. A body that
     * goes whole with its prefix is read now, and that read is its check; a larger body's first
     * chunk goes with the prefix, and the chosen strategy sends the rest.
     */
    RealTransfer region(FileRegion region, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(region, "source");
        if (!region.hasPrefix()) {
            return slice(region.file(), region.position(), region.count(), target);
        }
        long position = region.position();
        long count = region.count();
        ByteBuffer[] prefixBuffers = region.prefixBuffers();
        Preflight.checkSliceArguments(region.file(), position, count, target);
        Peers.Peer peer = Peers.of(target, platform);
        SourceFile source = sourceFile(region.file(), count, true, target, peer);
        boolean directIo = source.directIo();
        long prefixBytes = PrefixWrite.prefixBytes(prefixBuffers);
        long maxStep = TransferFacts.maxStep(options, platform);
        int chunk = directIo ? 0 : PrefixWrite.chunkBytes(prefixBytes, count, peer.segmentSize, maxStep);
        TransferFacts facts = sliceFacts(source, position, count, chunk, target, peer, prefixBytes);
        Choice choice = choose(facts, source, position, count);
        boolean whole = choice.goesWithPrefix();
        int start = directIo || whole || chunk > 0
                ? 0
                : PrefixWrite.startBytes(prefixBytes, count, peer.segmentSize, maxStep);
        if (start > 0) {
            // a forced strategy or an excluded buffered passed the whole-body row over: gather the start anyway
            choice.release();
            chunk = start;
            facts = sliceFacts(source, position, count, chunk, target, peer, prefixBytes);
            choice = choose(facts, source, position, count);
        }
        PrefixWrite prefix = new PrefixWrite(
                prefixBuffers,
                prefixBytes,
                source.channel,
                position,
                whole ? (int) count : chunk,
                whole
                        ? choice.passToPrefix()
                        : chunk == 0 ? null : BufferedStrategy.INSTANCE.takeFromPool(facts, chunk));
        try {
            Preflight.requireSlice(
                    source.channel,
                    position,
                    count,
                    !source.readChecks || directIo
                            ? null
                            : whole ? prefix::readChunk : Preflight.lastByte(source.channel, position, count));
            return RealTransfer.start(facts, choice, options, prefix, null);
        } catch (IOException | RuntimeException | Error e) {
            prefix.release();
            choice.release();
            throw e;
        }
    }

    /**
     * The facts of {@code count} bytes of {@code file} from {@code position} after the first
     * {@code chunk}, which go with a prefix of {@code prefixBytes} (both 0 without one).
     */
    private TransferFacts sliceFacts(
            SourceFile file,
            long position,
            long count,
            int chunk,
            WritableByteChannel target,
            Peers.Peer peer,
            long prefixBytes)
            throws IOException {
        boolean jdk = file.jdk; // a JDK file as a FILE slice, any other through a slice view
        return TransferFacts.checked(
                jdk ? file.channel : null,
                jdk ? ChannelKind.FILE : ChannelKind.OTHER,
                jdk ? null : file.channel,
                position + chunk,
                count - chunk,
                target,
                peer,
                options,
                platform,
                file.directIo(),
                prefixBytes,
                chunk);
    }

    /**
     * Copies from a caller's channel, exactly {@code count} bytes or to its end ({@code count} -1):
     * a JDK file with a usable size from its position, which then advances past what moved (also
     * when the copy fails part-way); any other channel (procfs, a FIFO, a socket) as a stream, since
     * a FILE request needs a count. Returns the bytes moved.
     *
     * @throws IllegalArgumentException if the source is a file with fewer than {@code count} bytes
     *     after its position
     */
    long copyChannel(ReadableByteChannel source, long count, WritableByteChannel target) throws IOException {
        if (ChannelKinds.of(source) != ChannelKind.FILE && !(source instanceof NativeFile)) {
            return run(stream(source, null, count, target, null));
        }
        SourceFile file = SourceFile.callers((FileChannel) source);
        long start;
        long size;
        try {
            start = file.channel.position();
            size = file.channel.size();
        } catch (IOException e) {
            return run(stream(source, file, count, target, null)); // a FileChannel over a pipe cannot seek
        }
        if (size == 0 && !file.isEmpty()) {
            return run(stream(source, file, count, target, null));
        }
        long left = Math.max(0, size - start);
        if (count > left) {
            throw new IllegalArgumentException("count: " + count + " (expected: <= " + left
                    + ", the bytes from the channel's position " + start + " to the end of the file)");
        }
        long slice = count < 0 ? left : count;
        long from = Math.min(start, size); // a position past the end reads nothing, as the JDK's transferTo
        return FileChannels.copyAndAdvance(file.channel, start, () -> {
            RealTransfer transfer = checkedSlice(file.channel, from, slice, target);
            return count < 0 ? runToEnd(transfer) : run(transfer);
        });
    }

    /**
     * A source read as a stream, to its end ({@code count} -1) or for exactly {@code count} bytes.
     * A JDK file channel without a usable size ({@code file}) counts as OTHER; it is checked for its
     * mode here, as a FILE source is when its transfer is checked.
     *
     * @param file the source as a JDK file channel, or null when it is none
     * @param owned a file the library opened, closed with the transfer; or null
     */
    private RealTransfer stream(
            ReadableByteChannel source, SourceFile file, long count, WritableByteChannel target, Closeable owned)
            throws IOException {
        ChannelKind kind = file != null ? ChannelKind.OTHER : ChannelKinds.of(source);
        if (file != null) {
            file.directIo(); // a channel open for writing only throws the JDK's own exception now
        }
        return start(
                TransferFacts.checked(
                        source,
                        kind,
                        null,
                        0,
                        count,
                        target,
                        Peers.of(target, platform),
                        options,
                        platform,
                        false,
                        0,
                        0),
                owned);
    }

    /**
     * Starts a transfer of {@code count} bytes of {@code file} from {@code position}, checked
     * ({@link Preflight#requireSlice}) with one read before the listener hears of it, as the chosen
     * row says: the step's read of the whole slice where it reads ahead (a small file to this host),
     * else a one-byte read of the slice's last byte. A file opened for direct I/O, which cannot be a
     * directory and whose reads must be aligned, and another provider's file, read through a
     * positional view, have their size compared instead.
     *
     * @param peer where the target's peer is, read once by the caller
     * @param owned a file the library opened, closed with the transfer; or null
     */
    private RealTransfer checkedStart(
            SourceFile file, long position, long count, WritableByteChannel target, Peers.Peer peer, Closeable owned)
            throws IOException {
        FileChannel channel = file.channel;
        boolean directIo = file.directIo();
        if (!file.readChecks || count == 0 || directIo) {
            Preflight.requireSlice(channel, position, count, null);
            return start(sliceFacts(file, position, count, 0, target, peer, 0), owned);
        }
        TransferFacts facts = sliceFacts(file, position, count, 0, target, peer, 0);
        Choice choice = choose(facts, file, position, count);
        try {
            Preflight.requireSlice(
                    channel,
                    position,
                    count,
                    choice.readsAhead()
                            ? () -> choice.readAhead() == count
                            : Preflight.lastByte(channel, position, count));
        } catch (IOException | RuntimeException | Error e) {
            choice.release();
            throw e;
        }
        return RealTransfer.start(facts, choice, options, null, owned);
    }

    /**
     * Chooses the strategy for a slice of {@code file}; when none can serve it, what is wrong with
     * the slice or the channel is said first.
     */
    private Choice choose(TransferFacts facts, SourceFile file, long position, long count) throws IOException {
        try {
            return selection.choose(facts);
        } catch (IllegalArgumentException e) {
            if (file.channel instanceof NativeFile opened) {
                opened.jdkChannel(); // what a forced strategy needs: fails naming the file where it cannot be had
            }
            boolean probes = file.readChecks && !facts.sourceDirectIo();
            Preflight.requireSlice(
                    file.channel, position, count, probes ? Preflight.lastByte(file.channel, position, count) : null);
            throw e;
        }
    }

    /** Chooses the strategy for {@code facts} and starts it (onStart); {@code owned}, if not null, closes with it. */
    private RealTransfer start(TransferFacts facts, Closeable owned) throws IOException {
        return RealTransfer.start(facts, selection.choose(facts), options, null, owned);
    }

    /**
     * Fails as a copy of {@code file} into a new file would before its first byte for these options
     * alone (a forced strategy that cannot serve it, every one excluded); {@code file} stands in for
     * the target, not made yet.
     */
    void requireFileToFile(FileChannel file) throws IOException {
        TransferRequest request = TransferRequest.builder()
                .source(file, ChannelKind.FILE)
                .slice(0, file.size())
                .target(file, ChannelKind.FILE)
                .build();
        selection
                .choose(new TransferFacts(request, Peers.Peer.ELSEWHERE, options, platform, false, 0, 0))
                .release();
    }

    /** Whether a file may be opened natively with these options ({@link Selection#nativeLimit}). */
    boolean opensNatively() {
        return selection.nativeLimit(false, null, Peers.Peer.ELSEWHERE) >= 0;
    }

    /** Runs a transfer to its end on the calling thread for a verb that drops its result; returns the bytes moved. */
    long run(RealTransfer transfer) throws IOException {
        transfer.dropResult();
        return Engine.run(transfer, options);
    }

    /** As {@link #run}, for a verb that copies until the end of the source ({@link RealTransfer#toEndOfFile}). */
    long runToEnd(RealTransfer transfer) throws IOException {
        transfer.toEndOfFile();
        return run(transfer);
    }

    /** The blocking loop that runs {@code transfer} with these options. */
    Engine engine(RealTransfer transfer) {
        return new Engine(transfer, options);
    }
}
