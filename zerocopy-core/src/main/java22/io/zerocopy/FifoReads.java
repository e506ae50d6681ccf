package io.zerocopy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;

/**
 * A FIFO that {@link NativeFiles} opened, read as the JDK's channel reads one. The native open
 * never waits for a writer, and counts as the reader a waiting writer needs: the writer may then
 * write, close and be gone before anything else opens the FIFO. So its bytes are read through that
 * same descriptor; a reopen would wait for another writer.
 *
 * <p>A read waits until a writer has written or gone, then makes one {@code read}. A platform
 * thread waits in {@code poll} calls of at most {@link SocketWaits#WAIT_MILLIS}; a virtual thread
 * asks {@code poll} without waiting and sleeps between (1 ms, doubling up to the same bound), so
 * that its carrier is free for the writer. Between the waits a close from another thread ends the
 * read ({@link AsynchronousCloseException}) and an interrupt closes the file
 * ({@link ClosedByInterruptException}), as they end the JDK's read. The end comes once every writer
 * has gone and nothing is left. A FIFO no writer has opened yet is waited for, as the JDK's
 * blocking open waits: the kernel reports a hang-up only after a writer has come.
 */
final class FifoReads {
    private FifoReads() {}

    /** The next bytes of {@code file}'s FIFO at {@code fd}, held by the caller, into {@code dst}; -1 at the end. */
    static int read(NativeFile file, int fd, ByteBuffer dst) throws IOException {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        boolean virtual = Thread.currentThread().isVirtual();
        for (long pause = 1; ; pause = Math.min(2 * pause, SocketWaits.WAIT_MILLIS)) {
            int n = readWhenReady(file, fd, dst, virtual ? 0 : SocketWaits.WAIT_MILLIS);
            if (n != 0) {
                return n;
            }
            if (!file.isOpen()) {
                throw new AsynchronousCloseException();
            }
            if (virtual) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // seen below, as a platform thread's
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                file.close();
                throw new ClosedByInterruptException();
            }
        }
    }

    /** One {@code poll} of at most {@code millis}, then one {@code read} if ready: the bytes read, -1 at the end, 0 if none came. */
    private static int readWhenReady(NativeFile file, int fd, ByteBuffer dst, int millis) throws IOException {
        try (Scratch s = Scratch.lend()) {
            int ready = LinuxCalls.poll(s.calls, fd, LinuxCalls.POLLIN, millis);
            long n = 0;
            if (ready > 0) {
                MemorySegment into = dst.isDirect() ? MemorySegment.ofBuffer(dst) : s.bounce(dst.remaining());
                n = LinuxCalls.read(s.calls, fd, into, into.byteSize());
                if (n > 0) {
                    int got = (int) n;
                    if (!dst.isDirect()) {
                        int at = dst.arrayOffset() + dst.position();
                        MemorySegment.copy(into, ValueLayout.JAVA_BYTE, 0, dst.array(), at, got);
                    }
                    dst.position(dst.position() + got);
                    return got;
                }
                if (n == 0) {
                    return -1; // every writer gone, nothing left
                }
            }
            int errno = s.calls.errno();
            if ((ready < 0 || n < 0) && errno != LinuxCalls.EINTR && errno != LinuxCalls.EAGAIN) {
                throw LinuxCalls.failure((ready < 0 ? "poll " : "read ") + file.path(), errno);
            }
            return 0;
        }
    }
}
