package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The checks made before a transfer starts, so that what cannot work fails with the JDK's own
 * exception before the listener hears of a transfer: a pending interrupt, a closed channel, a file
 * channel opened in the wrong mode, a directory given as the source. None of them touches a byte.
 */
final class Preflight {
    private Preflight() {
    }

    /**
     * An interrupt pending when a verb is called ends it before anything is touched: a JDK
     * {@code FileChannel} closes itself on any operation made while the thread is interrupted, and
     * even reading the caller's position or size would close a channel the caller owns.
     */
    static void checkNotInterrupted() throws TransferException {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransferException("interrupted before the transfer started", 0,
                    new InterruptedIOException("interrupted before the transfer started"));
        }
    }

    static void requireOpen(Channel channel) throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    /**
     * A directory opens for reading on Linux and has a size; only a read would fail (EISDIR), and
     * inside a strategy that is a failure after {@code onStart} (sendfile even says "No such
     * device"). Its attributes tell at once.
     */
    static void requireNotDirectory(Path source) throws IOException {
        if (Files.isDirectory(source)) {
            throw new IOException(source + ": Is a directory");
        }
    }

    /**
     * Makes a JDK file channel opened in the wrong mode throw the JDK's own
     * {@code NonReadableChannelException} or {@code NonWritableChannelException} now. Zero-byte
     * calls check the mode and touch nothing. A source opened for direct I/O is not read at all:
     * {@link ChannelKinds#isDirectIo} found it readable already (the JDK checks the mode before the
     * alignment), and on JDK 17 a read into a heap buffer, even of zero bytes, leaves an aligned
     * temporary buffer in the thread's JDK buffer cache that the JDK later fails to free, so the
     * caller's next heap-buffer I/O on that thread throws {@code NullPointerException}.
     *
     * <p>A caller's file channel may be open on a directory, which has a size and fails only when
     * read (EISDIR; inside a strategy, after {@code onStart}, sendfile even says "No such device").
     * With {@code probeDirectory}, one byte is read where the transfer reads first anyway; not from
     * a channel opened for direct I/O, which rejects such a read (and cannot be a directory).
     */
    static void requireModes(TransferRequest request, boolean probeDirectory) throws IOException {
        requireOpen(request.source());
        requireOpen(request.target());
        if (request.source() instanceof FileChannel && ChannelKinds.of(request.source()) != ChannelKind.OTHER
                && !ChannelKinds.isDirectIo((FileChannel) request.source())) {
            ((FileChannel) request.source()).read(ChannelKinds.NOTHING, 0);
        }
        if (probeDirectory && request.sourceKind() == ChannelKind.FILE && request.count() > 0 && !request.sourceDirectIo()) {
            request.sourceFile().read(ByteBuffer.allocate(1), request.position());
        }
        if (request.target() instanceof FileChannel && ChannelKinds.of(request.target()) == ChannelKind.FILE) {
            // Not positional: a FileChannel over a pipe, FIFO or terminal cannot seek.
            ((FileChannel) request.target()).write(ChannelKinds.NOTHING);
        }
    }

    /** Arguments of a file-slice verb, checked before anything is touched. */
    static void checkSlice(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
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
    }
}
