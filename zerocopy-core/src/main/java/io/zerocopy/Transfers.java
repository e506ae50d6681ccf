package io.zerocopy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
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
 * Moves bytes between files, sockets and streams by the fastest correct path the platform offers.
 *
 * <pre>{@code
 * long sent = Transfers.copy(Path.of("video.mp4"), socketChannel);
 * }</pre>
 *
 * <p>Each {@code copy} looks at what the two ends are (a file, a JDK socket, a pipe, a stream, some
 * other channel), at the operating system and JDK, and at the size, and picks a strategy:
 * {@code transferTo} where the kernel can copy by itself ({@code sendfile(2)},
 * {@code copy_file_range(2)}), {@code mmap} windows for large files going where the kernel cannot,
 * and a reusable {@code buffered} copy otherwise. It then drives that strategy to the end, dealing
 * with the things naive loops get wrong: short counts, the kernel's 2 GB per-call limit,
 * non-blocking targets that accept nothing for a while, files that shrink, stalls and interrupts.
 * A debug line on the {@code io.zerocopy.Transfers} logger names the strategy of every transfer
 * and why it was chosen.
 *
 * <p>Every verb has a form whose last parameter is a {@link TransferOptions} (a forced or excluded
 * strategy, a listener, a rate limit, a stall timeout); the form without it uses
 * {@link TransferOptions#defaults()}. For servers: {@link #open(FileRegion, WritableByteChannel)}
 * returns a {@link Transfer} that a selector loop advances on readiness,
 * {@link #copyAsync(Path, WritableByteChannel, Executor)} runs a copy on an executor, the
 * exact-count {@link #copy(ReadableByteChannel, long, WritableByteChannel)} reads a body of known
 * length and not a byte more, and {@link #copy(FileRegion, WritableByteChannel)} sends a prefix and
 * a file region without a segment that carries the prefix alone.
 *
 * <p>The {@code copy} verbs return the number of bytes moved and block until they have all moved,
 * the source is exhausted, or the transfer fails. Each method documents what it reads, where it
 * writes and what it leaves behind; the common rules are:
 * <ul>
 *   <li><b>Ownership.</b> Channels, sockets and streams passed in are never closed, flushed, or
 *       switched between blocking and non-blocking mode, and after the call they are not registered
 *       with any selector of the library's. Files opened from a {@code Path} are closed before the
 *       method returns (for {@code open}, when the transfer ends or is closed).</li>
 *   <li><b>Short counts</b> are the library's problem: a {@code copy} does not return until
 *       everything moved. A non-blocking target is waited on with a selector.</li>
 *   <li><b>Errors before the first byte</b>: {@code NullPointerException} for a null argument,
 *       {@code IllegalArgumentException} for a bad value or a forced strategy that cannot serve the
 *       pair, {@code ClosedChannelException} for a closed channel (its {@code ClosedByInterruptException}
 *       for an interrupt that came while the verb opened or sized a file; one pending at the call
 *       is a {@link TransferException} caused by {@code InterruptedIOException}, nothing touched),
 *       and the JDK's own exceptions for a path that cannot be opened, a channel opened in the
 *       wrong mode, or a source path that is a directory (an {@code IOException} "Is a directory").</li>
 *   <li><b>Errors from the first write on</b>: a {@link TransferException} with
 *       {@link TransferException#bytesTransferred()} (0 if that write failed), after the listener's
 *       {@code onFailure}; a {@link TruncatedSourceException} if a file shrank, a
 *       {@link TransferTimeoutException} if nothing moved for the stall timeout. Whatever a
 *       channel, stream, mapping or buffer throws counts: an unchecked exception becomes a
 *       {@code TransferException} with it as the cause; an {@code Error} is told to
 *       {@code onFailure} wrapped in one and then thrown as itself. Into a channel the count is
 *       exact, what the channel took (a socket's peer may have read less); into a stream, the
 *       writes that completed: a stream's failed write does not say how much of it got through.</li>
 *   <li><b>Interrupts</b>: an interrupt during a JDK channel operation closes the channels that
 *       operation was on (that is the JDK's rule: for {@code transferTo} into a socket, JDK 17
 *       closes the source file only, JDK 25 the socket too) and surfaces as a
 *       {@code TransferException} caused by {@code ClosedByInterruptException}; one seen between
 *       operations as a {@code TransferException} caused by {@code InterruptedIOException}, with
 *       the channels still open. Either way the thread's interrupt status stays set. When the
 *       cause is {@code ClosedByInterruptException} (or {@code AsynchronousCloseException}, for a channel
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
public final class Transfers {
    private Transfers() {}

    /**
     * Copies the whole file to a channel, starting at the channel's position if it is a file.
     *
     * <p>The size is taken when the file is opened: if the file grows meanwhile only that many
     * bytes are sent; if it shrinks the copy fails with {@link TruncatedSourceException}. A file
     * whose size reads as 0 (such as those in {@code /proc}) is read to its end instead. A file
     * rewritten in place during the copy (cut, then written again to at least the bytes not yet
     * sent) is sent as each step reads it, the old bytes then the new, without a failure: only a
     * shrink that still stands when a step reads is seen.
     *
     * @return the bytes moved: the file's size
     */
    public static long copy(Path source, WritableByteChannel target) throws IOException {
        return copy(source, target, TransferOptions.defaults());
    }

    /** As {@link #copy(Path, WritableByteChannel)}, with {@code options}. */
    public static long copy(Path source, WritableByteChannel target, TransferOptions options) throws IOException {
        Opener opener = opener(options);
        Preflight.checkEnds(source, target);
        return opener.run(opener.wholeFile(source, target, false));
    }

    /**
     * Copies the whole file to a stream; the stream is neither flushed nor closed. A
     * {@code FileOutputStream} (exactly that class) is written through its channel; for a socket,
     * pass its {@code SocketChannel} rather than its stream, so the kernel can send straight from
     * the page cache. File size rules as for {@link #copy(Path, WritableByteChannel)}.
     */
    public static long copy(Path source, OutputStream target) throws IOException {
        return copy(source, target, TransferOptions.defaults());
    }

    /** As {@link #copy(Path, OutputStream)}, with {@code options}. */
    public static long copy(Path source, OutputStream target, TransferOptions options) throws IOException {
        Opener opener = opener(options);
        Preflight.checkEnds(source, target);
        return opener.run(opener.wholeFile(source, ChannelKinds.channelOf(target), false));
    }

    /**
     * Copies a file to a new file, with the options and failure modes of
     * {@link Files#copy(Path, Path, CopyOption...)}: {@code FileAlreadyExistsException} unless
     * {@link StandardCopyOption#REPLACE_EXISTING} is given; {@link StandardCopyOption#COPY_ATTRIBUTES}
     * copies the modification time and, where the file system has them, the owner, group and POSIX
     * permissions (the nine read, write and execute bits: unlike {@code Files.copy}, never
     * set-user-ID, set-group-ID or sticky, with or without the option), the last three as
     * {@code Files.copy} does only where the process may set the owner and group (as root, or for
     * its own file): elsewhere the new file is the process's, with the source's permissions less
     * the umask; {@link LinkOption#NOFOLLOW_LINKS}
     * copies a symbolic link itself. Copying a file onto itself does nothing and returns 0. A
     * directory or a special file is made by {@code Files.copy} itself, out of reach of the
     * {@code TransferOptions} (a FIFO is read to its end however long its writer takes, no stall
     * timeout or interrupt ends it), and a symbolic link with
     * {@code NOFOLLOW_LINKS} is made anew with what it names (with {@code COPY_ATTRIBUTES} its owner
     * and group where the process may set them, as {@code Files.copy} does, and no other
     * attribute); each counts as 0 bytes. With
     * {@code NOFOLLOW_LINKS} no link is followed, not even one renamed over the source during the
     * copy: that copy fails with a {@code FileSystemException} naming the source. With
     * {@code COPY_ATTRIBUTES} the new file's attributes are set without following links, so a link
     * renamed over the target while the copy runs fails it rather than having them set on what it
     * names. A file that ends before its size (sysfs) is copied to its end, as {@code Files.copy}
     * does. Unlike {@code Files.copy}, which copies to wherever the file ends, the bytes copied are
     * the size the source had when opened, as for {@link #copy(Path, WritableByteChannel)}: bytes
     * appended meanwhile are left out, and a source that shrinks fails the copy. A failure part-way
     * (a full file system) is a {@link TransferException} with the count and the cause, as for every
     * verb, not the {@code FileSystemException} of {@code Files.copy}; the partial target is then
     * deleted, as it is when a listener's exception aborts the copy. One thrown from
     * {@code onComplete} comes after the last byte: the target is kept whole, with its attributes,
     * and then the exception is thrown. A target that {@code REPLACE_EXISTING} replaces is deleted
     * only once the source is open and a strategy chosen: a copy that cannot start (a source the
     * process may not read, options that leave no strategy) leaves it, as JDK 25's
     * {@code Files.copy} does (JDK 17's deletes it first).
     *
     * @throws UnsupportedOperationException for an option other than those three (as {@code Files.copy})
     */
    public static long copy(Path source, Path target, CopyOption... copyOptions) throws IOException {
        return copy(source, target, TransferOptions.defaults(), copyOptions);
    }

    /**
     * As {@link #copy(Path, Path, CopyOption...)}, with {@code options}; the copy options follow
     * them, as the varargs must come last.
     */
    public static long copy(Path source, Path target, TransferOptions options, CopyOption... copyOptions)
            throws IOException {
        Opener opener = opener(options);
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(copyOptions, "copyOptions");
        Preflight.checkNotInterrupted();
        return PathCopy.copy(source, target, copyOptions, PathCopy.byTransfer(opener, source));
    }

    /**
     * Copies {@code count} bytes of {@code source} starting at {@code position} to {@code target}:
     * {@code FileChannel.transferTo} done to the end. The source's own position is left unchanged;
     * a file target is written at its position, which then advances past the bytes written. A
     * target that is the source file itself, written where the slice overlaps, holds what the
     * strategy that ran left there, as with {@code transferTo}: no order of reads and writes is
     * promised.
     *
     * @return {@code count}
     * @throws IllegalArgumentException if {@code position} or {@code count} is negative or the slice
     *     reaches past the end of the file
     * @throws TruncatedSourceException if the file shrank under the transfer, or, for the channel
     *     of an {@link OpenFile}, below the slice since the size it was opened with
     */
    public static long copy(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        return copy(source, position, count, target, TransferOptions.defaults());
    }

    /** As {@link #copy(FileChannel, long, long, WritableByteChannel)}, with {@code options}. */
    public static long copy(
            FileChannel source, long position, long count, WritableByteChannel target, TransferOptions options)
            throws IOException {
        Opener opener = opener(options);
        return opener.run(opener.slice(source, position, count, target));
    }

    /**
     * Writes the region's prefix and then its bytes of the file, as one stream: an HTTP response,
     * a record with its framing. The first write gathers the prefix with the start of the file, so
     * that no segment carries the prefix alone: the whole region up to 80 KiB; past that, or where
     * a forced strategy or an excluded {@code buffered} passes that over, to a loopback peer as much
     * as fills the prefix's last TCP segment, and to other peers 16 KiB.
     * Those file bytes are read into a heap buffer of the transfer's own. Under a rate limit every
     * write, the prefix's included, is at most one step's worth, and file bytes go with the prefix
     * only where both fit one step. The rest of the file takes the path the library chooses for it,
     * as a slice copy would. The prefix buffers are consumed (their positions advance); the file's
     * position is left unchanged.
     *
     * @return the prefix's bytes plus the region's count
     * @throws IllegalArgumentException if the region reaches past the end of the file
     * @throws TruncatedSourceException as for {@link #copy(FileChannel, long, long, WritableByteChannel)}
     */
    public static long copy(FileRegion source, WritableByteChannel target) throws IOException {
        return copy(source, target, TransferOptions.defaults());
    }

    /** As {@link #copy(FileRegion, WritableByteChannel)}, with {@code options}. */
    public static long copy(FileRegion source, WritableByteChannel target, TransferOptions options) throws IOException {
        Opener opener = opener(options);
        return opener.run(opener.region(source, target));
    }

    /**
     * Copies from {@code source} until its end of stream. A JDK {@code FileChannel} source, or an
     * {@link OpenFile}'s channel, is read from its current position up to the size it has when the
     * copy starts, or to its end where that comes first and the file did not shrink (a sysfs file
     * overstates its size), and its position advances by the bytes moved (also when the copy fails
     * part-way). Any other source (a socket, a wrapper, another file system's {@code FileChannel}
     * such as zipfs's) is read with its own reads, as a stream: after a failure its position is
     * where those reads left it, which may be past the bytes counted. A file target is written at,
     * and advances, its position.
     */
    public static long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException {
        return copy(source, target, TransferOptions.defaults());
    }

    /** As {@link #copy(ReadableByteChannel, WritableByteChannel)}, with {@code options}. */
    public static long copy(ReadableByteChannel source, WritableByteChannel target, TransferOptions options)
            throws IOException {
        Opener opener = opener(options);
        Preflight.checkEnds(source, target);
        return opener.copyChannel(source, UNTIL_END, target);
    }

    /**
     * Copies exactly {@code count} bytes from {@code source}, and not one more: the bytes after
     * them stay in the source for the caller's next read (an HTTP body of {@code Content-Length}
     * bytes, a record of known size). A JDK {@code FileChannel} source is read from its position,
     * which advances by the bytes moved; a file target is written at, and advances, its position.
     * Any other source is read as a stream, as for {@link #copy(ReadableByteChannel, WritableByteChannel)}.
     *
     * @throws IllegalArgumentException if {@code count} is negative, or the source is a file with
     *     fewer than {@code count} bytes after its position
     * @throws TransferException with an {@code EOFException} as its cause if the source ends first
     */
    public static long copy(ReadableByteChannel source, long count, WritableByteChannel target) throws IOException {
        return copy(source, count, target, TransferOptions.defaults());
    }

    /** As {@link #copy(ReadableByteChannel, long, WritableByteChannel)}, with {@code options}. */
    public static long copy(ReadableByteChannel source, long count, WritableByteChannel target, TransferOptions options)
            throws IOException {
        Opener opener = opener(options);
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Checks.notNegative(count, "count");
        Preflight.checkNotInterrupted();
        return opener.copyChannel(source, count, target);
    }

    /** The count of a channel copy that runs to the source's end. */
    private static final long UNTIL_END = -1;

    /**
     * Copies from {@code source} until its end of stream; neither stream is flushed or closed. A
     * {@code FileInputStream} or {@code FileOutputStream} (exactly those classes) is used through its
     * channel, so two files on both ends take the kernel's path; the input stream's position
     * advances as if it had been read.
     */
    public static long copy(InputStream source, OutputStream target) throws IOException {
        return copy(source, target, TransferOptions.defaults());
    }

    /** As {@link #copy(InputStream, OutputStream)}, with {@code options}. */
    public static long copy(InputStream source, OutputStream target, TransferOptions options) throws IOException {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        return copy(ChannelKinds.channelOf(source), ChannelKinds.channelOf(target), options); // which checks the rest
    }

    /**
     * Opens a transfer of the region (its prefix, then its bytes of the file) to {@code target},
     * for the caller to drive with {@link Transfer#advance()}. Arguments are checked, and the
     * strategy chosen, as for {@link #copy(FileRegion, WritableByteChannel)}; its count includes
     * the prefix.
     */
    public static Transfer open(FileRegion source, WritableByteChannel target) throws IOException {
        return open(source, target, TransferOptions.defaults());
    }

    /** As {@link #open(FileRegion, WritableByteChannel)}, with {@code options}. */
    public static Transfer open(FileRegion source, WritableByteChannel target, TransferOptions options)
            throws IOException {
        return doneIfEmpty(opener(options).region(source, target));
    }

    /**
     * Opens a transfer of the whole file to {@code target}, for the caller to drive with
     * {@link Transfer#advance()}. The file is opened now and closed when the transfer ends or is
     * closed; file size rules as for {@link #copy(Path, WritableByteChannel)}.
     */
    public static Transfer open(Path source, WritableByteChannel target) throws IOException {
        return open(source, target, TransferOptions.defaults());
    }

    /** As {@link #open(Path, WritableByteChannel)}, with {@code options}. */
    public static Transfer open(Path source, WritableByteChannel target, TransferOptions options) throws IOException {
        Opener opener = opener(options);
        Preflight.checkEnds(source, target);
        return doneIfEmpty(opener.wholeFile(source, target, true));
    }

    /** A handle of nothing to move is done when it is handed out, before any advance. */
    private static Transfer doneIfEmpty(RealTransfer transfer) throws IOException {
        if (transfer.count() == 0) {
            transfer.advance();
        }
        return transfer;
    }

    /**
     * Copies the whole file to {@code target} on a thread of {@code executor} (on Java 21 and later
     * {@code Executors.newVirtualThreadPerTaskExecutor()} serves any number of slow peers). The
     * future completes with the result, or exceptionally with what
     * {@link #copy(Path, WritableByteChannel)} would have thrown, an {@code Error} too; an executor
     * that refuses the task throws its {@code RejectedExecutionException} from here, as
     * {@code CompletableFuture.runAsync} does, and a task run twice copies once. {@code cancel} on the
     * future stops the copy at its next step without interrupting the thread or closing a channel,
     * and the listener hears {@code onFailure}; a step blocked in a blocking channel ends first, and
     * what it moved, the rest of the file included, counts in that failure. A copy cancelled before
     * its task runs opens nothing, and its listener hears nothing. A {@code cancel} that returns
     * true always ends the copy so; false means the copy had already ended, and its own outcome
     * completes the future. By the time {@code cancel} returns, the target is out of the library's
     * selector; the copy's thread makes no further write once the listener hears {@code onFailure}.
     */
    public static CompletableFuture<TransferResult> copyAsync(
            Path source, WritableByteChannel target, Executor executor) {
        return copyAsync(source, target, executor, TransferOptions.defaults());
    }

    /** As {@link #copyAsync(Path, WritableByteChannel, Executor)}, with {@code options}. */
    public static CompletableFuture<TransferResult> copyAsync(
            Path source, WritableByteChannel target, Executor executor, TransferOptions options) {
        Opener opener = opener(options);
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(executor, "executor");
        return AsyncCopies.start(
                handle -> {
                    Preflight.checkNotInterrupted(); // as copy does: the executor's thread may come interrupted
                    RealTransfer transfer = opener.wholeFile(source, target, true);
                    handle.attach(opener.engine(transfer)).run();
                    return transfer.result();
                },
                executor);
    }

    /** Whether a file may be opened natively under the default options and the system properties now. */
    static boolean opensNatively() {
        return TransferOptions.defaults().opener().opensNatively();
    }

    private static Opener opener(TransferOptions options) {
        return Objects.requireNonNull(options, "options").opener();
    }
}
