package io.zerocopy;

import java.io.IOException;
import java.nio.channels.FileChannel;

/** Putting a caller's file channel back where the caller expects it. */
final class Positions {
    private Positions() {
    }

    /**
     * Sets {@code channel}'s position even when the thread's interrupt status is set. A JDK
     * {@code FileChannel} closes itself on any operation made while the thread is interrupted, and
     * putting the position back after an interrupted transfer must not close a channel the caller
     * still owns. The interrupt status is the same afterwards.
     */
    static void restore(FileChannel channel, long position) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            channel.position(position);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
