package io.zerocopy.benchmarks.uring;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The C library calls the prototype needs, through the FFM API with {@code errno} captured: the three
 * io_uring system calls (the C library has no wrappers for them, so they go through the variadic
 * {@code syscall(2)}, every argument passed as a {@code long}), {@code mmap}, {@code munmap} and
 * {@code close}. A negative result means failure; the errno is then in the caller's call state.
 */
@SuppressWarnings("restricted")
final class Syscalls {
    /** The io_uring system call numbers, the same on x86-64 and arm64 (added after the tables were unified). */
    static final long IO_URING_SETUP = 425;

    static final long IO_URING_ENTER = 426;
    static final long IO_URING_REGISTER = 427;

    static final int EINTR = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle SYSCALL = bind(
            "syscall",
            FunctionDescriptor.of(
                    JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP =
            bind("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = bind("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LINKER.defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private Syscalls() {}

    private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = ERRNO_OPTION;
        System.arraycopy(extra, 0, options, 1, extra.length);
        MemorySegment symbol = LINKER.defaultLookup()
                .find(name)
                .orElseThrow(() -> new UnsupportedOperationException("no symbol " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /** {@code syscall(number, a, b, c, d, e, f)}; unused arguments are passed as 0. */
    static long syscall(MemorySegment callState, long number, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) SYSCALL.invokeExact(callState, number, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code mmap}; returns the address, or -1 (MAP_FAILED). */
    static long mmap(MemorySegment callState, long length, int prot, int flags, int fd, long offset) {
        try {
            return ((MemorySegment) MMAP.invokeExact(callState, MemorySegment.NULL, length, prot, flags, fd, offset))
                    .address();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int munmap(MemorySegment callState, MemorySegment region) {
        try {
            return (int) MUNMAP.invokeExact(callState, region, region.byteSize());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int close(MemorySegment callState, int fd) {
        try {
            return (int) CLOSE.invokeExact(callState, fd);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** An {@code IOException} in the JDK's words for a failed call: the C library's message, the call, the errno. */
    static IOException failure(String call, int errno) {
        return new IOException(message(errno) + " (" + call + ", errno " + errno + ")");
    }

    static String message(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
