package io.zerocopy;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.spi.AbstractInterruptibleChannel;

/**
 * Makes a native call that blocks on a socket interruptible: while one runs, the thread's interrupt
 * closes this object (the JDK's hook for interruptible channels), which shuts the socket down so
 * that the kernel returns, and the call then throws {@code ClosedByInterruptException}. It holds no
 * resource of its own. One per step; not thread-safe.
 */
final class Wake extends AbstractInterruptibleChannel {
    /** A native call's raw result: what it moved, or negative with errno in the caller's state. */
    interface Call {
        long run() throws IOException;
    }

    private volatile int socket = -1;

    /**
     * Runs {@code call}, which may block on {@code socketFd}; an interrupt meanwhile shuts that
     * socket down.
     *
     * @throws ClosedByInterruptException if an interrupt ended a call that moved nothing
     */
    long call(int socketFd, Call call) throws IOException {
        long n = -1;
        socket = socketFd;
        try {
            begin();
            n = call.run();
        } finally {
            socket = -1;
            try {
                end(n >= 0);
            } catch (ClosedByInterruptException e) {
                if (n <= 0) {
                    throw e;
                } // else the bytes it moved count, and the caller closes the channel
            }
        }
        return n;
    }

    @Override
    protected void implCloseChannel() {
        int fd = socket;
        if (fd >= 0) {
            LinuxCalls.shutdown(new LinuxCalls.State(), fd, LinuxCalls.SHUT_RDWR); // once, on an interrupt
        }
    }
}
