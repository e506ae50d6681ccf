package io.zerocopy;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Calls on a caller's file channel that must not close it. A JDK {@code FileChannel} closes itself
 * on any blocking operation made while the thread's interrupt status is set; after an interrupted
 * transfer the library still has to read the source's size (to tell a truncation) and put positions
 * back, and neither may close a channel the caller owns. Each method clears the status for the one
 * call and sets it again afterwards.
 */
final class FileChannels {
    private FileChannels() {
    }

    /** Sets {@code channel}'s position; the thread's interrupt status is the same afterwards. */
    static void restorePosition(FileChannel channel, long position) throws IOException {
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
}
