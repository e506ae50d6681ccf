package io.zerocopy;

import io.zerocopy.spi.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.Path;
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
 * The rules every method follows (who owns what, which exception when) are on {@link Copier}.
 *
 * <p>For servers: {@link #open} returns a {@link Transfer} that a selector loop advances on
 * readiness, {@link #copyAsync} runs a copy on a virtual thread, the exact-count
 * {@link #copy(ReadableByteChannel, long, WritableByteChannel)} reads a body of known length and
 * not a byte more, and {@link #copy(ByteBuffer[], FileChannel, long, long, WritableByteChannel)}
 * sends a header and a file region without a segment that carries the header alone.
 *
 * <p>The static methods use {@link TransferOptions#defaults()}; {@link #with(TransferOptions)}
 * gives a {@link Copier} with the same methods and other options (a forced strategy, a listener,
 * a rate limit, a stall timeout). A debug line on the {@code io.zerocopy.Transfers} logger names
 * the strategy of every transfer and why it was chosen.
 */
public final class Transfers {
    private static final Copier DEFAULT = new Copier(TransferOptions.defaults(), Platform.current());

    private Transfers() {
    }

    /** A copier that runs every transfer with {@code options}. */
    public static Copier with(TransferOptions options) {
        return new Copier(options, Platform.current());
    }

    /** Copies the whole file to a channel; see {@link Copier#copy(Path, WritableByteChannel)}. */
    public static long copy(Path source, WritableByteChannel target) throws IOException {
        return DEFAULT.copy(source, target);
    }

    /** Copies the whole file to a socket; see {@link Copier#copy(Path, Socket)}. */
    public static long copy(Path source, Socket target) throws IOException {
        return DEFAULT.copy(source, target);
    }

    /** Copies the whole file to a stream; see {@link Copier#copy(Path, OutputStream)}. */
    public static long copy(Path source, OutputStream target) throws IOException {
        return DEFAULT.copy(source, target);
    }

    /** Copies a file to a new file, like {@code Files.copy}; see {@link Copier#copy(Path, Path, CopyOption...)}. */
    public static long copy(Path source, Path target, CopyOption... options) throws IOException {
        return DEFAULT.copy(source, target, options);
    }

    /** Copies a slice of a file; see {@link Copier#copy(FileChannel, long, long, WritableByteChannel)}. */
    public static long copy(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        return DEFAULT.copy(source, position, count, target);
    }

    /** Copies until end of stream; see {@link Copier#copy(ReadableByteChannel, WritableByteChannel)}. */
    public static long copy(ReadableByteChannel source, WritableByteChannel target) throws IOException {
        return DEFAULT.copy(source, target);
    }

    /** Copies exactly {@code count} bytes; see {@link Copier#copy(ReadableByteChannel, long, WritableByteChannel)}. */
    public static long copy(ReadableByteChannel source, long count, WritableByteChannel target) throws IOException {
        return DEFAULT.copy(source, count, target);
    }

    /** Sends a header and a file slice as one stream; see {@link Copier#copy(ByteBuffer[], FileChannel, long, long, WritableByteChannel)}. */
    public static long copy(ByteBuffer[] header, FileChannel source, long position, long count,
            WritableByteChannel target) throws IOException {
        return DEFAULT.copy(header, source, position, count, target);
    }

    /** A transfer of a file slice for an event loop; see {@link Copier#open(FileChannel, long, long, WritableByteChannel)}. */
    public static Transfer open(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        return DEFAULT.open(source, position, count, target);
    }

    /** A header + body transfer for an event loop; see {@link Copier#open(ByteBuffer[], FileChannel, long, long, WritableByteChannel)}. */
    public static Transfer open(ByteBuffer[] header, FileChannel source, long position, long count,
            WritableByteChannel target) throws IOException {
        return DEFAULT.open(header, source, position, count, target);
    }

    /** A transfer of a whole file for an event loop; see {@link Copier#open(Path, WritableByteChannel)}. */
    public static Transfer open(Path source, WritableByteChannel target) throws IOException {
        return DEFAULT.open(source, target);
    }

    /** Copies the whole file on another thread; see {@link Copier#copyAsync(Path, WritableByteChannel)}. */
    public static CompletableFuture<TransferResult> copyAsync(Path source, WritableByteChannel target) {
        return DEFAULT.copyAsync(source, target);
    }

    /** Copies the whole file on {@code executor}; see {@link Copier#copyAsync(Path, WritableByteChannel, Executor)}. */
    public static CompletableFuture<TransferResult> copyAsync(Path source, WritableByteChannel target,
            Executor executor) {
        return DEFAULT.copyAsync(source, target, executor);
    }

    /** Copies until end of stream; see {@link Copier#copy(InputStream, OutputStream)}. */
    public static long copy(InputStream source, OutputStream target) throws IOException {
        return DEFAULT.copy(source, target);
    }
}
