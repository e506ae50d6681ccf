package io.zerocopy.benchmarks.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.zerocopy.TransferException;
import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The floor under the library's native file path: the calls nginx makes for a small file, each its
 * own FFM call with errno captured, and nothing else. {@code openat(O_RDONLY | O_NONBLOCK |
 * O_CLOEXEC)} of the path, {@code fstat} (the system call, as the library makes it), {@code pread}
 * into a per-thread direct buffer, the JDK socket's own {@code write} of that buffer, {@code close}.
 * No checks beyond the calls' results, no objects per file. A file of at most
 * {@link #BUFFER_BYTES}; the socket is a blocking JDK socket channel, never closed here. Failures
 * are {@link TransferException}s with the bytes sent, as {@link UringSender} says.
 */
@SuppressWarnings("restricted")
public final class PlainSender implements UringSender {
    /** The largest file sent: one read's worth, the library's native limit. */
    static final int BUFFER_BYTES = 64 * 1024;

    private static final int AT_FDCWD = -100;
    private static final int OPEN_FLAGS = 0 /* O_RDONLY */ | 04000 /* O_NONBLOCK */ | 02000000 /* O_CLOEXEC */;
    /** {@code fstat}'s system call number: x86-64 and the generic table (AArch64) differ. */
    private static final long SYS_FSTAT = System.getProperty("os.arch").equals("aarch64") ? 80 : 5;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final MethodHandle OPENAT = LINKER.downcallHandle(
            LINKER.defaultLookup().find("openat").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            ERRNO,
            Linker.Option.firstVariadicArg(3));
    private static final MethodHandle PREAD = LINKER.downcallHandle(
            LINKER.defaultLookup().find("pread").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG),
            ERRNO);

    private final ThreadLocal<PerThread> perThread = ThreadLocal.withInitial(PerThread::new);

    /** A sender whose memory each thread allocates on first use. */
    public PlainSender() {}

    @Override
    public long send(Path file, long size, SocketChannel socket) throws IOException {
        if (size < 0 || size > BUFFER_BYTES) {
            throw new IllegalArgumentException("size: " + size + " (expected: 0 to " + BUFFER_BYTES + ")");
        }
        PerThread t = perThread.get();
        int fd = openat(t.callState, t.name(file));
        if (fd < 0) {
            throw failure("open " + file, Syscalls.errno(t.callState));
        }
        try {
            if (Syscalls.syscall(t.callState, SYS_FSTAT, fd, t.stat.address(), 0, 0, 0, 0) < 0) {
                throw failure("fstat " + file, Syscalls.errno(t.callState));
            }
            long n = pread(t.callState, fd, t.memory, size);
            if (n < 0) {
                throw failure("read " + file, Syscalls.errno(t.callState));
            }
            if (n < size) {
                throw new TruncatedSourceException(0, size, n, null);
            }
            ByteBuffer buffer = t.buffer.clear().limit((int) size);
            long sent = 0;
            try {
                while (buffer.hasRemaining()) {
                    sent += socket.write(buffer);
                }
            } catch (IOException e) {
                throw new TransferException("send failed: " + e.getMessage(), sent, e);
            }
            return sent;
        } finally {
            Syscalls.close(t.callState, fd);
        }
    }

    private static TransferException failure(String call, int errno) {
        return new TransferException(Syscalls.message(errno) + " (" + call + ", errno " + errno + ")", 0, null);
    }

    /** Nothing to close: each thread's memory goes with the thread. */
    @Override
    public void close() {}

    private static int openat(MemorySegment callState, MemorySegment path) {
        try {
            return (int) OPENAT.invokeExact(callState, AT_FDCWD, path, OPEN_FLAGS, 0);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private static long pread(MemorySegment callState, int fd, MemorySegment into, long count) {
        try {
            return (long) PREAD.invokeExact(callState, fd, into, count, 0L);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** One thread's call state, {@code struct stat}, path and buffer. */
    private static final class PerThread {
        private final Arena arena = Arena.ofAuto();
        final MemorySegment callState = arena.allocate(Syscalls.CALL_STATE);
        final MemorySegment stat = arena.allocate(256, 8);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        final MemorySegment memory = MemorySegment.ofBuffer(buffer);
        private MemorySegment name = arena.allocate(256);

        /** The path NUL-terminated, as the library hands it to the kernel. */
        MemorySegment name(Path path) {
            byte[] bytes = path.toString().getBytes(StandardCharsets.UTF_8);
            if (bytes.length + 1 > name.byteSize()) {
                name = arena.allocate(bytes.length + 1L);
            }
            MemorySegment.copy(bytes, 0, name, JAVA_BYTE, 0, bytes.length);
            name.set(JAVA_BYTE, bytes.length, (byte) 0);
            return name;
        }
    }
}
