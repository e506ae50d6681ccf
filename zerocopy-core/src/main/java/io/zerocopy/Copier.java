package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Platform;
import io.zerocopy.spi.TransferRequest;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code copy} verbs of {@link Transfers}, bound to one set of {@link TransferOptions}. Get one
 * with {@link Transfers#with(TransferOptions)}; it is immutable and thread-safe, so keep it in a
 * field and share it.
 *
 * <p>Every method returns the number of bytes moved and blocks until they have all moved, the
 * source is exhausted, or the transfer fails. Each method documents what it reads, where it writes
 * and what it leaves behind; the common rules are:
 * <ul>
 *   <li><b>Ownership.</b> Channels, sockets and streams passed in are never closed, flushed, or
 *       switched between blocking and non-blocking mode, and after the call they are not registered
 *       with any selector of the library's. Files opened from a {@code Path} are closed before the
 *       method returns.</li>
 *   <li><b>Short counts</b> are the library's problem: the call does not return until everything
 *       moved. A non-blocking target is waited on with a selector.</li>
 *   <li><b>Errors before the first byte</b>: {@code NullPointerException} for a null argument,
 *       {@code IllegalArgumentException} for a bad value or a forced strategy that cannot serve the
 *       pair, {@code ClosedChannelException} for a closed channel, and the JDK's own exceptions for
 *       a path that cannot be opened, a channel opened in the wrong mode, or a source that is a
 *       directory (an {@code IOException} "Is a directory": Linux lets a directory be opened for
 *       reading, and only a read tells).</li>
 *   <li><b>Errors after the first byte</b>: a {@link TransferException} with
 *       {@link TransferException#bytesTransferred()}; a {@link TruncatedSourceException} if a file
 *       shrank, a {@link TransferTimeoutException} if nothing moved for the stall timeout. Into a
 *       channel the count is exact; into a stream it counts the writes that completed, since a
 *       stream's failed write does not say how much of it got through.</li>
 *   <li><b>Interrupts</b>: an interrupt during a JDK channel operation closes the channel that
 *       operation was on (that is the JDK's rule: for {@code transferTo} the source file, not the
 *       socket it sends to) and surfaces as a {@code TransferException} caused by
 *       {@code ClosedByInterruptException}; an interrupt seen between operations surfaces as a
 *       {@code TransferException} caused by {@code InterruptedIOException}, with the channels
 *       still open. Either way the thread's interrupt status stays set. When the cause is
 *       {@code ClosedByInterruptException} (or {@code AsynchronousCloseException}, for a channel
 *       closed by another thread), {@code bytesTransferred()} is a lower bound: the JDK does not
 *       report what the call it cut short had already moved. A write into a stream (a
 *       plain {@code Socket}'s, any {@code OutputStream}) is not interruptible in the JDK: the
 *       interrupt is seen once that write returns; close the socket to end it sooner.</li>
 * </ul>
 */
public final class Copier {
    private static final Logger log = LoggerFactory.getLogger(Transfers.class);

    /** Zero bytes, for mode checks: never written to, so one instance serves every thread. */
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private static final Set<StandardOpenOption> NEW_FILE = EnumSet.of(StandardOpenOption.WRITE,
            StandardOpenOption.CREATE_NEW);

    private final TransferOptions options;
    private final Platform platform;
    private final Selection selection;

    Copier(TransferOptions options, Platform platform) {
        this.options = Objects.requireNonNull(options, "options");
        this.platform = Objects.requireNonNull(platform, "platform");
        this.selection = new Selection(Strategies.registered());
    }

    /** The options this copier runs with. */
    public TransferOptions options() {
        return options;
    }

    /**
     * Copies the whole file to a channel, starting at the channel's position if it is a file.
     *
     * <p>The size is taken when the file is opened: if the file grows meanwhile only that many
     * bytes are sent; if it shrinks the copy fails with {@link TruncatedSourceException}. A file
     * whose size reads as 0 (such as those in {@code /proc}) is read to its end instead.
     */
    public long copy(Path source, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
        return copyWholeFile(source, target);
    }

    /**
     * Copies the whole file to a socket. A socket made from a {@code SocketChannel} is written
     * through its channel (so the kernel can send straight from the page cache); a plain
     * {@code java.net.Socket} through its output stream. The socket is neither closed nor shut
     * down. File size rules as for {@link #copy(Path, WritableByteChannel)}.
     *
     * @throws SocketException if the socket is closed, not connected or its output is shut down
     */
    public long copy(Path source, Socket target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
        // Checked here for both kinds of socket: a channel's transferTo would otherwise report these
        // as ClosedChannelException or a broken pipe after the transfer started.
        if (target.isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!target.isConnected()) {
            throw new SocketException("Socket is not connected");
        }
        if (target.isOutputShutdown()) {
            throw new SocketException("Socket output is shutdown");
        }
        SocketChannel channel = target.getChannel();
        if (channel != null) {
            return copy(source, channel);
        }
        OutputStream out = target.getOutputStream();
        return copyWholeFile(source, new StreamChannels.Output(out));
    }

    /**
     * Copies the whole file to a stream; the stream is neither flushed nor closed. A
     * {@code FileOutputStream} (exactly that class) is written through its channel. File size rules
     * as for {@link #copy(Path, WritableByteChannel)}.
     */
    public long copy(Path source, OutputStream target) throws IOException {
        Objects.requireNonNull(source, "source");
        checkNotInterrupted();
        WritableByteChannel out = channelOf(Objects.requireNonNull(target, "target"));
        return copyWholeFile(source, out);
    }

    /**
     * Copies a file to a new file, with the options and failure modes of
     * {@link Files#copy(Path, Path, CopyOption...)}: {@code FileAlreadyExistsException} unless
     * {@link StandardCopyOption#REPLACE_EXISTING} is given; {@link StandardCopyOption#COPY_ATTRIBUTES}
     * copies the modification time and, where supported, POSIX permissions;
     * {@link LinkOption#NOFOLLOW_LINKS} copies a symbolic link itself. Copying a file onto itself
     * does nothing and returns 0. A directory, or a symbolic link with {@code NOFOLLOW_LINKS}, is
     * copied by {@code Files.copy} itself (there are no bytes to move) and counts as 0 bytes. If the
     * copy fails part-way the partial target is deleted.
     *
     * @throws UnsupportedOperationException for an option other than those three (as {@code Files.copy})
     */
    public long copy(Path source, Path target, CopyOption... copyOptions) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(copyOptions, "options");
        checkNotInterrupted();
        boolean replace = false;
        boolean attributes = false;
        boolean followLinks = true;
        for (CopyOption option : copyOptions) {
            if (option == StandardCopyOption.REPLACE_EXISTING) {
                replace = true;
            } else if (option == StandardCopyOption.COPY_ATTRIBUTES) {
                attributes = true;
            } else if (option == LinkOption.NOFOLLOW_LINKS) {
                followLinks = false;
            } else {
                throw new UnsupportedOperationException("options: " + Objects.requireNonNull(option, "options[i]")
                        + " (expected: REPLACE_EXISTING, COPY_ATTRIBUTES or NOFOLLOW_LINKS)");
            }
        }
        LinkOption[] linkOptions = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        BasicFileAttributes sourceAttributes = Files.readAttributes(source, BasicFileAttributes.class, linkOptions);
        if (!sourceAttributes.isRegularFile()) {
            Files.copy(source, target, copyOptions);
            return 0;
        }
        BasicFileAttributes targetAttributes = existingAttributes(target);
        if (targetAttributes != null) {
            // As Files.copy: the target's own attributes, not its link's destination's, so a link to
            // the source is a different file that REPLACE_EXISTING replaces.
            Object key = sourceAttributes.fileKey();
            if (key != null && key.equals(targetAttributes.fileKey())) {
                return 0;
            }
            if (!replace) {
                throw new FileAlreadyExistsException(target.toString());
            }
            Files.delete(target);
        }
        long moved;
        boolean created = false;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(target, NEW_FILE, sameMode(source))) {
            created = true;
            moved = copyWholeFile(in, out);
        } catch (IOException | RuntimeException e) {
            if (created) {
                try {
                    Files.deleteIfExists(target);
                } catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
        if (attributes) {
            copyAttributes(source, target, sourceAttributes);
        }
        return moved;
    }

    /**
     * Copies {@code count} bytes of {@code source} starting at {@code position} to {@code target}.
     * The source's own position is left unchanged; a file target is written at its position, which
     * then advances past the bytes written.
     *
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative or the slice
     *     reaches past the end of the file
     */
    public long copy(FileChannel source, long position, long count, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
        Checks.notNegative(position, "position");
        Checks.notNegative(count, "count");
        requireOpen(source);
        requireOpen(target);
        long size = source.size();
        if (position > size) {
            throw new IllegalArgumentException("position: " + position + " (expected: <= file size " + size + ")");
        }
        if (count > size - position) {
            throw new IllegalArgumentException("count: " + count + " (expected: <= " + (size - position)
                    + ", the bytes from position " + position + " to the end of the file)");
        }
        return transfer(TransferRequest.builder()
                .source(source, ChannelKind.FILE)
                .slice(position, count)
                .target(target, kindOf(target)));
    }

    /**
     * Copies from {@code source} until its end of stream. A JDK {@code FileChannel} source is read
     * from its current position up to the size it has when the copy starts, and its position
     * advances by the bytes moved (also when the copy fails part-way); a file target is written at,
     * and advances, its position.
     */
    public long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
        FileChannel file = asSizedFile(source);
        if (file == null) {
            // A FileChannel without a usable size (procfs, a FIFO) is read to end of stream like any
            // other channel; a FILE request would need a count.
            ChannelKind kind = kindOf(source);
            return transfer(TransferRequest.builder()
                    .source(source, kind == ChannelKind.FILE ? ChannelKind.OTHER : kind)
                    .target(target, kindOf(target)));
        }
        long start = file.position();
        long moved;
        try {
            moved = transfer(TransferRequest.builder()
                    .source(file, ChannelKind.FILE)
                    .slice(start, Math.max(0, file.size() - start))
                    .target(target, kindOf(target)));
        } catch (TransferException e) {
            advance(file, start, e.bytesTransferred(), e);
            throw e;
        }
        advance(file, start, moved, null);
        return moved;
    }

    /**
     * Moves a source channel's position past what was copied. A failure to do so is added to the
     * transfer's own failure if there is one, so it cannot hide it, and otherwise reported with
     * the count.
     */
    private static void advance(FileChannel file, long start, long moved, TransferException failure)
            throws TransferException {
        if (!file.isOpen()) {
            return;
        }
        try {
            FileChannels.restorePosition(file, start + moved);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
                return;
            }
            throw new TransferException("copied " + moved + " bytes, but could not move the source's position to "
                    + (start + moved), moved, e);
        }
    }

    /**
     * Copies from {@code source} until its end of stream; neither stream is flushed or closed. A
     * {@code FileInputStream} or {@code FileOutputStream} (exactly those classes) is used through its
     * channel, so two files on both ends take the kernel's path; the input stream's position
     * advances as if it had been read.
     */
    public long copy(InputStream source, OutputStream target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
        ReadableByteChannel in = source.getClass() == FileInputStream.class
                ? ((FileInputStream) source).getChannel()
                : new StreamChannels.Input(source);
        return copy(in, channelOf(target));
    }

    private long copyWholeFile(Path source, WritableByteChannel target) throws IOException {
        try (FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
            return copyWholeFile(file, target);
        }
    }

    private long copyWholeFile(FileChannel file, WritableByteChannel target) throws IOException {
        long size = file.size();
        TransferRequest.Builder request = TransferRequest.builder().target(target, kindOf(target));
        if (size == 0 && !isEmpty(file)) {
            // procfs, sysfs and friends report 0 and still have content: read to end of stream.
            return transfer(request.source(file, ChannelKind.OTHER));
        }
        return transfer(request.source(file, ChannelKind.FILE).slice(0, size));
    }

    private long transfer(TransferRequest.Builder builder) throws IOException {
        TransferRequest request = builder
                .bufferSize(options.bufferSize())
                .mappedWindow(options.mappedWindow())
                .platform(platform)
                .build();
        requireOpen(request.source());
        requireOpen(request.target());
        requireModes(request);
        Selection.Choice choice = selection.choose(request, options.strategy().orElse(null), options.excluded(),
                System.getProperty(TransferOptions.STRATEGY_PROPERTY), System.getProperty(TransferOptions.EXCLUDE_PROPERTY));
        log.debug("{} via {}: {}", request, choice.strategy.name(), choice.reason);
        return new Engine(request, choice, options).run();
    }

    /** The kind of a channel the caller passed in or the library made. */
    static ChannelKind kindOf(Channel channel) {
        if (channel instanceof StreamChannels.Input || channel instanceof StreamChannels.Output) {
            return ChannelKind.STREAM;
        }
        if (channel.getClass().getModule() != FileChannel.class.getModule()) {
            return ChannelKind.OTHER;
        }
        if (channel instanceof FileChannel) {
            return ChannelKind.FILE;
        }
        if (channel instanceof SocketChannel) {
            return ChannelKind.SOCKET;
        }
        if (channel instanceof Pipe.SinkChannel || channel instanceof Pipe.SourceChannel) {
            return ChannelKind.PIPE;
        }
        return ChannelKind.OTHER;
    }

    /**
     * The source as a file with a known size, or null: a JDK FileChannel whose position and size can
     * be read and whose size is not 0 (a FileChannel over a pipe or a procfs file is read as a stream).
     */
    private static FileChannel asSizedFile(ReadableByteChannel source) {
        if (!(source instanceof FileChannel) || kindOf(source) != ChannelKind.FILE) {
            return null;
        }
        FileChannel file = (FileChannel) source;
        try {
            file.position();
            return file.size() > 0 || isEmpty(file) ? file : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether a file whose size reads as 0 really is empty, so that it can be sent as a FILE slice
     * of 0 bytes (which every file strategy serves), rather than a procfs-style file that has
     * content anyway or a channel that cannot be read by position (a FIFO).
     */
    private static boolean isEmpty(FileChannel file) {
        try {
            return file.read(ByteBuffer.allocate(1), 0) < 0;
        } catch (IOException | NonReadableChannelException e) {
            return false;
        }
    }

    private static WritableByteChannel channelOf(OutputStream target) {
        return target.getClass() == FileOutputStream.class
                ? ((FileOutputStream) target).getChannel()
                : new StreamChannels.Output(target);
    }

    /**
     * Makes a JDK file channel opened in the wrong mode throw the JDK's own
     * {@code NonReadableChannelException} or {@code NonWritableChannelException} now, before the
     * listener hears of a transfer that cannot start. Zero-byte calls check the mode and touch
     * nothing.
     */
    private static void requireModes(TransferRequest request) throws IOException {
        if (request.source() instanceof FileChannel && kindOf(request.source()) != ChannelKind.OTHER) {
            ((FileChannel) request.source()).read(NOTHING, 0);
        }
        if (request.sourceKind() == ChannelKind.FILE && request.count() > 0) {
            // A directory opens for reading on Linux and has a size; only a read fails (EISDIR), and
            // inside a strategy that would be a TransferException after onStart (sendfile even says
            // "No such device"). One byte, where the transfer reads first anyway.
            request.sourceFile().read(ByteBuffer.allocate(1), request.position());
        }
        if (request.target() instanceof FileChannel && kindOf(request.target()) == ChannelKind.FILE) {
            // Not positional: a FileChannel over a pipe, FIFO or terminal cannot seek.
            ((FileChannel) request.target()).write(NOTHING);
        }
    }

    /**
     * An interrupt pending when a copy is called ends it before anything is touched: a JDK
     * {@code FileChannel} closes itself on any operation made while the thread is interrupted, and
     * even reading the caller's position or size would close a channel the caller owns.
     */
    private static void checkNotInterrupted() throws TransferException {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransferException("interrupted before the transfer started", 0,
                    new InterruptedIOException("interrupted before the transfer started"));
        }
    }

    private static void requireOpen(Channel channel) throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /** The target's own attributes (a link is not followed), or null if there is nothing there. */
    private static BasicFileAttributes existingAttributes(Path target) throws IOException {
        try {
            return Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The source's POSIX permissions as a creation attribute, so that the target never exists with
     * wider permissions than the source (a 0600 key must not be readable by others for the length
     * of the copy); the umask applies on top, as it does for {@code Files.copy}. None elsewhere.
     */
    private static FileAttribute<?>[] sameMode(Path source) throws IOException {
        PosixFileAttributeView posix = Files.getFileAttributeView(source, PosixFileAttributeView.class);
        if (posix == null) {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(posix.readAttributes().permissions())};
    }

    private static void copyAttributes(Path source, Path target, BasicFileAttributes attributes) throws IOException {
        PosixFileAttributeView sourcePosix = Files.getFileAttributeView(source, PosixFileAttributeView.class);
        PosixFileAttributeView targetPosix = Files.getFileAttributeView(target, PosixFileAttributeView.class);
        if (sourcePosix != null && targetPosix != null) {
            targetPosix.setPermissions(sourcePosix.readAttributes().permissions());
        }
        Files.getFileAttributeView(target, BasicFileAttributeView.class)
                .setTimes(attributes.lastModifiedTime(), attributes.lastAccessTime(), null);
    }

    @Override
    public String toString() {
        return "Copier{" + options + ", " + platform + "}";
    }
}
