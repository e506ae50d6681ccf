package io.zerocopy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Calls on a caller's file channel that must not close it. A JDK {@code FileChannel} closes itself
 * on a blocking operation made while the thread's interrupt status is set, yet after an interrupted
 * transfer the library still reads the source's size (to tell a truncation) and puts positions
 * back. Each method clears the status for its one call and sets it again afterwards.
 */
final class FileChannels {
    /**
     * The size each JDK channel of an {@code OpenFile} was handed out with; weak, so a channel no
     * one holds leaves it. A natively opened file keeps its own attributes.
     */
    private static final Map<FileChannel, Long> SIZES_AT_OPEN = Collections.synchronizedMap(new WeakHashMap<>());

    private FileChannels() {}

    /** Remembers the size {@code channel}'s file had when an {@code OpenFile} was made of it. */
    static void rememberSizeAtOpen(FileChannel channel, long size) {
        if (!(channel instanceof NativeFile)) {
            SIZES_AT_OPEN.put(channel, size);
        }
    }

    /**
     * The size {@code channel}'s file had when the library opened it for an {@code OpenFile}, which
     * is what its holder was told to send; -1 for a channel the caller opened.
     */
    static long sizeAtOpen(FileChannel channel) {
        if (channel instanceof NativeFile) {
            return ((NativeFile) channel).attributes().size();
        }
        Long size = SIZES_AT_OPEN.get(channel);
        return size != null ? size : -1;
    }

    /** Sets {@code channel}'s position; the thread's interrupt status is the same afterwards. */
    static void setPosition(FileChannel channel, long position) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            channel.position(position);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code channel.size()}; the thread's interrupt status is the same afterwards. */
    static long size(FileChannel channel) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            return channel.size();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A copy that returns the bytes it moved, or throws a {@link TransferException} with them. */
    interface Copy {
        long run() throws IOException;
    }

    /** Runs {@code copy} of a caller's file from {@code start}; moves its position past what moved, failed or not. */
    static long copyAndAdvance(FileChannel file, long start, Copy copy) throws IOException {
        long moved;
        try {
            moved = copy.run();
        } catch (TransferException e) {
            advance(file, start, e.bytesTransferred(), e);
            throw e;
        }
        advance(file, start, moved, null);
        return moved;
    }

    /**
     * Moves a source channel's position past what was copied. A failure to do so is added to the
     * transfer's own failure if there is one, so it cannot hide it, else reported with the count.
     */
    private static void advance(FileChannel file, long start, long moved, TransferException failure)
            throws TransferException {
        if (!file.isOpen()) {
            return;
        }
        try {
            setPosition(file, start + moved);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
                return;
            }
            throw new TransferException(
                    "copied " + moved + " bytes, but could not move the source's position to " + (start + moved),
                    moved,
                    e);
        }
    }
}
