package io.zerocopy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;

/**
 * The checks made before a transfer starts, so that what cannot work fails with the JDK's own
 * exception before the listener hears of a transfer: a pending interrupt, a closed channel, a slice
 * the file does not hold, a directory given as the source. A file channel opened in the wrong mode
 * is found when the facts complete the request ({@link ChannelKinds#requireModes}). None of them
 * touches a byte.
 */
final class Preflight {
    private Preflight() {}

    /**
     * An interrupt pending when a verb is called ends it before anything is touched: a JDK
     * {@code FileChannel} closes itself on any operation made while the thread is interrupted, and
     * even reading the caller's position or size would close a channel the caller owns.
     */
    static void checkNotInterrupted() throws TransferException {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransferException(
                    "interrupted before the transfer started",
                    0,
                    new InterruptedIOException("interrupted before the transfer started"));
        }
    }

    /** The checks every verb starts with: both ends given, and the caller not interrupted. */
    static void checkEnds(Object source, Object target) throws TransferException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        checkNotInterrupted();
    }

    /**
     * Arguments of a file-slice verb, checked before anything is touched; a slice whose end is past
     * {@code Long.MAX_VALUE}, past any file's end, is named against the file's size before anything
     * adds them up.
     */
    static void checkSliceArguments(FileChannel source, long position, long count, WritableByteChannel target)
            throws IOException {
        checkEnds(source, target);
        Checks.notNegative(position, "position");
        Checks.notNegative(count, "count");
        ChannelKinds.requireOpen(source);
        ChannelKinds.requireOpen(target);
        if (count > Long.MAX_VALUE - position) {
            requireWithinSize(source, position, count);
        }
    }

    /** A read of a slice that also checks it: whether the file holds the slice's last byte (false: it ended first). */
    interface SliceCheck {
        boolean holdsLastByte() throws IOException;
    }

    /** The cheapest such read: one byte, the slice's last, a page the transfer reads anyway. */
    static SliceCheck lastByte(FileChannel file, long position, long count) {
        return () -> ChannelKinds.probe(file, position + count - 1) > 0;
    }

    /**
     * Checks that the slice {@code [position, position + count)} lies within the file and, for a JDK
     * file channel, that the channel can read it: it is no directory (which a channel can be open
     * on, and which fails only when read) and not open for writing only. With a {@code read} of the
     * slice, one system call does both, and the size is read only when that read finds no byte or
     * fails, to say why. Without one (another provider's channel, or one opened for direct I/O,
     * which cannot be a directory) the size is compared.
     */
    static void requireSlice(FileChannel file, long position, long count, SliceCheck read) throws IOException {
        if (read == null || count == 0 || count > Long.MAX_VALUE - position) {
            requireWithinSize(file, position, count);
            return;
        }
        boolean complete;
        try {
            complete = read.holdsLastByte();
        } catch (IOException e) {
            requireWithinSize(file, position, count); // a slice past the end is the caller's mistake to name first
            throw e;
        }
        if (!complete) {
            requireWithinSize(file, position, count);
        }
    }

    /**
     * A slice past the end of the file is the caller's mistake, unless the library opened the file
     * for an {@link OpenFile} that held the slice then: that file shrank, a truncation.
     */
    private static void requireWithinSize(FileChannel file, long position, long count) throws IOException {
        long size = file.size();
        if (count > size - position && count <= FileChannels.sizeAtOpen(file) - position) {
            throw new TruncatedSourceException(0, position + count, size, null);
        }
        if (position > size) {
            throw new IllegalArgumentException("position: " + position + " (expected: <= file size " + size + ")");
        }
        if (count > size - position) {
            throw new IllegalArgumentException("count: " + count + " (expected: <= " + (size - position)
                    + ", the bytes from position " + position + " to the end of the file)");
        }
    }
}
