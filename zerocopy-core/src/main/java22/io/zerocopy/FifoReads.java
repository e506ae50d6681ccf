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
 * <p>A read waits until a writer has written or gone, in {@code poll} calls of at most
 * {@link SocketWaits#WAIT_MILLIS}, then makes one {@code read}. Between the waits a close from
 * another thread ends it ({@link AsynchronousCloseException}), and an interrupt closes the file
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
        try (NativeFiles.Scratch s = NativeFiles.scratch()) {
            while (true) {
                int ready = LinuxCalls.poll(s.calls, fd, LinuxCalls.POLLIN, SocketWaits.WAIT_MILLIS);
                long n = 0;
                if (ready > 0) {
                    MemorySegment into = dst.isDirect() ? MemorySegment.ofBuffer(dst) : s.bounce(dst.remaining());
                    n = LinuxCalls.read(s.calls, fd, into, into.byteSize());
                    if (n == 0) {
                        return -1;
                    }
                    if (n > 0) {
                        if (!dst.isDirect()) {
                            MemorySegment.copy(
                                    into,
                                    ValueLayout.JAVA_BYTE,
                                    0,
                                    dst.array(),
                                    dst.arrayOffset() + dst.position(),
                                    (int) n);
                        }
                        dst.position(dst.position() + (int) n);
                        return (int) n;
                    }
                }
                if ((ready < 0 || n < 0)
                        && s.calls.errno() != LinuxCalls.EINTR
                        && s.calls.errno() != LinuxCalls.EAGAIN) {
                    throw LinuxCalls.failure((ready < 0 ? "poll " : "read ") + file.path(), s.calls.errno());
                }
                if (!file.isOpen()) {
                    throw new AsynchronousCloseException();
                }
                if (Thread.currentThread().isInterrupted()) {
                    file.close();
                    throw new ClosedByInterruptException();
                }
            }
        }
    }
}
