package io.zerocopy;

import io.zerocopy.spi.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The verbs of {@link Transfers}, bound to one set of {@link TransferOptions}. Get one with
 * {@link Transfers#with(TransferOptions)}; it is immutable and thread-safe, so keep it in a field
 * and share it.
 *
 * <p>The {@code copy} verbs return the number of bytes moved and block until they have all moved,
 * the source is exhausted, or the transfer fails; {@code open} returns a {@link Transfer} that an
 * event loop drives, and {@code copyAsync} runs a copy on another thread. Each method documents
 * what it reads, where it writes and what it leaves behind; the common rules are:
 * <ul>
 *   <li><b>Ownership.</b> Channels, sockets and streams passed in are never closed, flushed, or
 *       switched between blocking and non-blocking mode, and after the call they are not registered
 *       with any selector of the library's. Files opened from a {@code Path} are closed before the
 *       method returns (for {@code open}, when the transfer ends or is closed).</li>
 *   <li><b>Short counts</b> are the library's problem: a {@code copy} does not return until
 *       everything moved. A non-blocking target is waited on with a selector.</li>
 *   <li><b>Errors before the first byte</b>: {@code NullPointerException} for a null argument,
 *       {@code IllegalArgumentException} for a bad value or a forced strategy that cannot serve the
 *       pair, {@code ClosedChannelException} for a closed channel, and the JDK's own exceptions for
 *       a path that cannot be opened, a channel opened in the wrong mode, or a source path that is a
 *       directory (an {@code IOException} "Is a directory").</li>
 *   <li><b>Errors after the first byte</b>: a {@link TransferException} with
 *       {@link TransferException#bytesTransferred()}, after the listener's {@code onFailure}; a
 *       {@link TruncatedSourceException} if a file shrank, a {@link TransferTimeoutException} if
 *       nothing moved for the stall timeout. Whatever a channel, stream, mapping or buffer throws
 *       counts: an unchecked exception becomes a {@code TransferException} with it as the cause; an
 *       {@code Error} is told to {@code onFailure} wrapped in one and then thrown as itself. Into a
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
 *   <li><b>Any file.</b> A {@code FileChannel} of another file system provider (zipfs, an
 *       in-memory file system) is read at explicit positions with a buffer, since neither the
 *       kernel's paths nor {@code map} serve it; one opened for direct I/O
 *       ({@code ExtendedOpenOption.DIRECT}) is sent from a mapping, which its alignment rules do not
 *       bind.</li>
 * </ul>
 */
public final class Copier {
    private final TransferOptions options;
    private final Platform platform;
    private final Opener opener;

    Copier(TransferOptions options, Platform platform) {
        this.options = Objects.requireNonNull(options, "options");
        this.platform = Objects.requireNonNull(platform, "platform");
        this.opener = new Opener(options, platform);
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
        Preflight.checkNotInterrupted();
        return opener.run(opener.wholeFile(source, target));
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
        Preflight.checkNotInterrupted();
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
        return opener.run(opener.wholeFile(source,
                channel != null ? channel : new StreamChannels.Output(target.getOutputStream())));
    }

    /**
     * Copies the whole file to a stream; the stream is neither flushed nor closed. A
     * {@code FileOutputStream} (exactly that class) is written through its channel. File size rules
     * as for {@link #copy(Path, WritableByteChannel)}.
     */
    public long copy(Path source, OutputStream target) throws IOException {
        Objects.requireNonNull(source, "source");
        Preflight.checkNotInterrupted();
        return opener.run(opener.wholeFile(source, ChannelKinds.channelOf(Objects.requireNonNull(target, "target"))));
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
        Preflight.checkNotInterrupted();
        return PathCopy.copy(source, target, copyOptions, (in, out) -> opener.run(opener.wholeFile(in, out)));
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
        return opener.run(opener.slice(source, position, count, target));
    }

    /**
     * Writes {@code header} and then {@code count} bytes of {@code source} from {@code position},
     * as one stream: an HTTP response, a record with its framing. The first write gathers the header
     * with the start of the file, so that no segment carries the header alone: the whole body up to
     * 80 KiB; past that, to a loopback peer, as much as fills the header's last TCP segment, and
     * to other peers 16 KiB. Those file bytes are read into a heap buffer of the transfer's own. The
     * rest of the file takes the path the library chooses for it, as a slice copy would
     * (docs/header-body.md has the measurements). The header buffers are consumed (their positions
     * advance) as a gathering write consumes them; the source's position is left unchanged.
     *
     * @return the header's bytes plus {@code count}
     * @throws IllegalArgumentException as for {@link #copy(FileChannel, long, long, WritableByteChannel)}
     */
    public long copy(ByteBuffer[] header, FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        return opener.run(opener.headerAndSlice(header, source, position, count, target));
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
        Preflight.checkNotInterrupted();
        FileChannel file = ChannelKinds.asSizedFile(source);
        if (file == null) {
            // A FileChannel without a usable size (procfs, a FIFO) is read to end of stream like any
            // other channel; a FILE request would need a count.
            return opener.run(opener.stream(source, -1, target));
        }
        long start = file.position();
        long count = Math.max(0, file.size() - start);
        return FileChannels.copyAndAdvance(file, start, () -> opener.run(opener.fileAt(file, start, count, target)));
    }

    /**
     * Copies exactly {@code count} bytes from {@code source}, and not one more: the bytes after
     * them stay in the source for the caller's next read (an HTTP body of {@code Content-Length}
     * bytes, a record of known size). A JDK {@code FileChannel} source is read from its position,
     * which advances by the bytes moved; a file target is written at, and advances, its position.
     *
     * @throws IllegalArgumentException if {@code count} is negative, or the source is a file with
     *     fewer than {@code count} bytes after its position
     * @throws TransferException with an {@code EOFException} as its cause if the source ends first
     */
    public long copy(ReadableByteChannel source, long count, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Checks.notNegative(count, "count");
        Preflight.checkNotInterrupted();
        FileChannel file = ChannelKinds.asSizedFile(source);
        if (file == null) {
            return opener.run(opener.stream(source, count, target));
        }
        long start = file.position();
        long left = Math.max(0, file.size() - start);
        if (count > left) {
            throw new IllegalArgumentException("count: " + count + " (expected: <= " + left
                    + ", the bytes from the channel's position " + start + " to the end of the file)");
        }
        return FileChannels.copyAndAdvance(file, start, () -> opener.run(opener.fileAt(file, start, count, target)));
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
        Preflight.checkNotInterrupted();
        return copy(ChannelKinds.channelOf(source), ChannelKinds.channelOf(target));
    }

    /**
     * Opens a transfer of {@code count} bytes of {@code source} from {@code position} to
     * {@code target}, for the caller to drive with {@link Transfer#advance()}. Arguments are checked,
     * and the strategy chosen, as for {@link #copy(FileChannel, long, long, WritableByteChannel)}.
     */
    public Transfer open(FileChannel source, long position, long count, WritableByteChannel target) throws IOException {
        return opener.slice(source, position, count, target);
    }

    /**
     * Opens a header + body transfer, as {@link #copy(ByteBuffer[], FileChannel, long, long, WritableByteChannel)}
     * sends it, for the caller to drive with {@link Transfer#advance()}. Its count includes the header.
     */
    public Transfer open(ByteBuffer[] header, FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        return opener.headerAndSlice(header, source, position, count, target);
    }

    /**
     * Opens a transfer of the whole file to {@code target}, for the caller to drive with
     * {@link Transfer#advance()}. The file is opened now and closed when the transfer ends or is
     * closed; file size rules as for {@link #copy(Path, WritableByteChannel)}.
     */
    public Transfer open(Path source, WritableByteChannel target) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Preflight.checkNotInterrupted();
        return opener.wholeFile(source, target);
    }

    /**
     * Copies the whole file to {@code target} on another thread: a virtual thread on Java 21 and
     * later, a small pool of daemon threads before that (pass an executor to serve many slow peers
     * on Java 17 to 20). The future completes with the result, or exceptionally with what
     * {@link #copy(Path, WritableByteChannel)} would have thrown. {@code cancel} on the future stops
     * the copy at its next step without interrupting the thread or closing a channel, and the
     * listener hears {@code onFailure}; a step blocked in a blocking channel ends first.
     */
    public CompletableFuture<TransferResult> copyAsync(Path source, WritableByteChannel target) {
        return copyAsync(source, target, AsyncCopies.defaultExecutor());
    }

    /** As {@link #copyAsync(Path, WritableByteChannel)}, on {@code executor}. */
    public CompletableFuture<TransferResult> copyAsync(Path source, WritableByteChannel target, Executor executor) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(executor, "executor");
        return AsyncCopies.start(handle -> {
            RealTransfer transfer = opener.wholeFile(source, target);
            Engine engine = new Engine(transfer, options);
            handle.attach(engine);
            engine.run();
            return transfer.result();
        }, executor);
    }

    @Override
    public String toString() {
        return "Copier{" + options + ", " + platform + "}";
    }
}
