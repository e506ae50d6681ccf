package io.zerocopy.benchmarks.uring;

import io.zerocopy.TransferException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The {@link UringSender} of the Java 22 part: one {@link Ring} and one native buffer per thread. A
 * file of at most {@link #BUFFER_BYTES} goes in one submission of four linked operations, waited for
 * in one {@code io_uring_enter}:
 * <ol>
 *   <li>{@code OPENAT} of the path into the ring's registered file slot (no descriptor in the process),</li>
 *   <li>{@code READ} of {@code size} bytes at offset 0 from that slot into the buffer,</li>
 *   <li>{@code SEND} of the buffer to the socket ({@code MSG_WAITALL | MSG_NOSIGNAL}),</li>
 *   <li>{@code CLOSE} of the slot.</li>
 * </ol>
 * A failed or short operation cancels the ones linked after it; the slot is then closed by a
 * submission of its own. A larger file goes buffer by buffer, the open in the first submission and
 * the close in the last.
 */
public final class RingSender implements UringSender {
    /** The per-thread buffer: the largest file sent in one submission (the benchmark's largest size). */
    static final int BUFFER_BYTES = 64 * 1024;

    private static final int AT_FDCWD = -100;
    private static final int O_RDONLY = 0;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int MSG_WAITALL = 0x100;
    private static final int ECANCELED = 125;
    private static final int SLOT = 0;

    private static final MethodHandle SOCKET_FD;

    static {
        try {
            Class<?> selChImpl = Class.forName("sun.nio.ch.SelChImpl");
            SOCKET_FD = MethodHandles.lookup()
                    .findVirtual(selChImpl, "getFDVal", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, SocketChannel.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ThreadLocal<PerThread> rings = new ThreadLocal<>();

    /** A sender whose rings are opened on first use by each thread. */
    public RingSender() {}

    @Override
    public long send(Path file, long size, SocketChannel socket) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("size: " + size + " (expected: >= 0)");
        }
        if (!socket.isBlocking()) {
            throw new IllegalArgumentException("socket: non-blocking (expected: a blocking socket)");
        }
        if (!socket.isOpen()) {
            throw new ClosedChannelException();
        }
        int socketFd = socketFd(socket);
        PerThread t = rings.get();
        if (t == null) {
            t = new PerThread();
            rings.set(t);
        }
        return t.send(file, size, socketFd);
    }

    private static int socketFd(SocketChannel socket) {
        try {
            return (int) SOCKET_FD.invokeExact(socket);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read the descriptor of " + socket, e);
        }
    }

    @Override
    public void close() {
        PerThread t = rings.get();
        if (t != null) {
            rings.remove();
            t.close();
        }
    }

    @Override
    public String toString() {
        return "io_uring sender (open, read, send, close linked; " + BUFFER_BYTES + "-byte buffer per thread)";
    }

    /** One thread's ring, buffer and the memory for a path. */
    private static final class PerThread implements AutoCloseable {
        private final Ring ring;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment buffer = arena.allocate(BUFFER_BYTES, 4096);
        private final MemorySegment pathBytes = arena.allocate(4096);
        private final int[] results = new int[Ring.ENTRIES];
        private Path lastPath;

        PerThread() throws IOException {
            try {
                ring = new Ring();
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        }

        long send(Path file, long size, int socketFd) throws IOException {
            putPath(file);
            long sent = 0;
            boolean open = false;
            try {
                do {
                    int chunk = (int) Math.min(size - sent, BUFFER_BYTES);
                    boolean first = !open;
                    boolean last = sent + chunk == size;
                    int opened = -1;
                    int read = -1;
                    int send = -1;
                    int close = -1;
                    int n = 0;
                    if (first) {
                        MemorySegment sqe = ring.next(Ring.OP_OPENAT, Ring.IO_LINK, AT_FDCWD);
                        Ring.address(sqe, pathBytes.address(), 0);
                        Ring.opFlags(sqe, O_RDONLY);
                        Ring.fileSlot(sqe, SLOT);
                        opened = n++;
                    }
                    if (chunk > 0) {
                        MemorySegment sqe = ring.next(Ring.OP_READ, (byte) (Ring.FIXED_FILE | Ring.IO_LINK), SLOT);
                        Ring.address(sqe, buffer.address(), chunk);
                        Ring.offset(sqe, sent);
                        read = n++;
                        sqe = ring.next(Ring.OP_SEND, last ? Ring.IO_LINK : 0, socketFd);
                        Ring.address(sqe, buffer.address(), chunk);
                        Ring.opFlags(sqe, MSG_NOSIGNAL | MSG_WAITALL);
                        send = n++;
                    }
                    if (last) {
                        MemorySegment sqe = ring.next(Ring.OP_CLOSE, (byte) 0, 0);
                        Ring.fileSlot(sqe, SLOT);
                        close = n++;
                    }
                    ring.submitAndWait(results);
                    if (first) {
                        if (results[opened] < 0) {
                            throw failure("open " + file, -results[opened], sent, null);
                        }
                        open = true;
                    }
                    if (chunk > 0) {
                        int r = results[read];
                        if (r < 0) {
                            throw failure("read " + file, -r, sent, null);
                        }
                        if (r < chunk) {
                            throw new io.zerocopy.TruncatedSourceException(sent, size, sent + r, null);
                        }
                        int s = results[send];
                        if (s < 0) {
                            throw failure("send", -s, sent, null);
                        }
                        sent += s;
                        if (s < chunk) {
                            throw new TransferException("the socket took " + s + " of " + chunk + " bytes", sent, null);
                        }
                    }
                    if (last) {
                        open = false;
                        if (results[close] < 0) {
                            throw failure("close", -results[close], sent, null);
                        }
                    }
                } while (sent < size);
                return sent;
            } finally {
                if (open) {
                    closeSlot();
                }
            }
        }

        /** Closes the slot after a failure cancelled the linked close; a failure of its own is of no use here. */
        private void closeSlot() throws IOException {
            MemorySegment sqe = ring.next(Ring.OP_CLOSE, (byte) 0, 0);
            Ring.fileSlot(sqe, SLOT);
            ring.submitAndWait(results);
        }

        private void putPath(Path file) {
            if (file == lastPath) {
                return;
            }
            byte[] bytes = file.toString().getBytes(StandardCharsets.UTF_8);
            if (bytes.length >= pathBytes.byteSize()) {
                throw new IllegalArgumentException("file: a path of " + bytes.length + " bytes (expected: < 4096)");
            }
            MemorySegment.copy(bytes, 0, pathBytes, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
            pathBytes.set(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
            lastPath = file;
        }

        private static TransferException failure(String call, int errno, long sent, Throwable cause) {
            if (errno == ECANCELED) {
                return new TransferException(
                        call + " was cancelled by the failure of an operation linked before it", sent, cause);
            }
            return new TransferException(Syscalls.message(errno) + " (" + call + ", errno " + errno + ")", sent, cause);
        }

        @Override
        public void close() {
            ring.close();
            arena.close();
        }
    }
}
