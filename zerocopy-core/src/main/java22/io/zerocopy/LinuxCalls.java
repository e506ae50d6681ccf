package io.zerocopy;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The Linux system calls behind the splice strategy, bound through the FFM API with {@code errno}
 * captured after each call ({@code Linker.Option.captureCallState}). Binding is a restricted
 * operation: this class is loaded only after {@link SpliceStrategy} checked that native access is
 * enabled, so a JVM without the flag never sees a warning.
 *
 * <p>Each call takes a {@link State} (the per-transfer memory the kernel writes errno, pipe
 * descriptors and file offsets into) and returns the raw result; negative results carry the errno in
 * the state. Thread-safe; a {@code State} is not.
 */
@SuppressWarnings("restricted")
final class LinuxCalls {
    static final int SPLICE_F_MOVE = 1;
    static final int SPLICE_F_NONBLOCK = 2;

    static final int F_GETFL = 3;
    static final int F_DUPFD_CLOEXEC = 1030;
    static final int F_SETPIPE_SZ = 1031;
    static final int F_GETPIPE_SZ = 1032;
    static final int O_APPEND = 02000;
    static final int O_CLOEXEC = 02000000;
    static final int O_RDONLY = 0;
    static final int O_NONBLOCK = 04000;
    static final int O_NOFOLLOW = 0400000;
    static final int AT_FDCWD = -100;
    static final int SHUT_RDWR = 2;

    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOENT = 2;
    static final int EACCES = 13;
    static final int EPERM = 1;
    static final int ELOOP = 40;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle SPLICE =
            bind("splice", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle PIPE2 = bind("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle FCNTL = bind(
            "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle READ =
            bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle OPENAT = bind(
            "openat",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(3));
    /**
     * {@code fstat} as the system call itself, through {@code syscall(2)}: the C library's
     * {@code fstat} makes {@code newfstatat(fd, "", AT_EMPTY_PATH)}, which copies and looks up an
     * empty path in the kernel. Null on an architecture whose call number is not known here.
     */
    private static final MethodHandle FSTAT = fstatCall(System.getProperty("os.arch"));

    private static final MethodHandle SENDFILE =
            bind("sendfile", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle PREAD =
            bind("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle SHUTDOWN = bind("shutdown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LINKER.defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private LinuxCalls() {}

    private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = ERRNO_OPTION;
        System.arraycopy(extra, 0, options, 1, extra.length);
        MemorySegment symbol = LINKER.defaultLookup()
                .find(name)
                .orElseThrow(() -> new UnsupportedOperationException("no symbol " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** Memory one transfer's calls write into: errno, two pipe descriptors, a file offset. */
    static final class State {
        final MemorySegment callState;
        final MemorySegment pipeFds;
        final MemorySegment offset;

        State() {
            // Freed by the GC: a few dozen bytes, and no thread confinement for a step that an event
            // loop may drive from more than one thread.
            Arena arena = Arena.ofAuto();
            this.callState = arena.allocate(CALL_STATE);
            this.pipeFds = arena.allocate(JAVA_INT, 2);
            this.offset = arena.allocate(JAVA_LONG);
        }

        int errno() {
            return (int) ERRNO.get(callState, 0L);
        }
    }

    static long splice(State s, int in, MemorySegment offIn, int out, MemorySegment offOut, long len, int flags) {
        try {
            return (long) SPLICE.invokeExact(s.callState, in, offIn, out, offOut, len, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int pipe2(State s, int flags) {
        try {
            return (int) PIPE2.invokeExact(s.callState, s.pipeFds, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int fcntl(State s, int fd, int command, int argument) {
        try {
            return (int) FCNTL.invokeExact(s.callState, fd, command, argument);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static long read(State s, int fd, MemorySegment buffer, long len) {
        try {
            return (long) READ.invokeExact(s.callState, fd, buffer, len);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code openat(2)} of a NUL-terminated path, with no mode (nothing is created). */
    static int openat(MemorySegment callState, int dirFd, MemorySegment path, int flags) {
        try {
            return (int) OPENAT.invokeExact(callState, dirFd, path, flags, 0);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static MethodHandle fstatCall(String arch) {
        long number = arch.equals("amd64") || arch.equals("x86_64") ? 5 : arch.equals("aarch64") ? 80 : -1;
        if (number < 0) {
            return null;
        }
        MethodHandle call = bind(
                "syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS),
                Linker.Option.firstVariadicArg(1));
        return MethodHandles.insertArguments(call, 1, number);
    }

    /** Whether {@link #fstat} is bound. */
    static boolean canStat() {
        return FSTAT != null;
    }

    /** {@code fstat(2)} into {@code stat}, a {@code struct stat} (see {@code LinuxFile.Stat}). */
    static int fstat(MemorySegment callState, int fd, MemorySegment stat) {
        try {
            return (int) (long) FSTAT.invokeExact(callState, fd, stat);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code sendfile(2)} from {@code in} at {@code *offset} (advanced by what it sends) into {@code out}. */
    static long sendfile(MemorySegment callState, int out, int in, MemorySegment offset, long count) {
        try {
            return (long) SENDFILE.invokeExact(callState, out, in, offset, count);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static long pread(MemorySegment callState, int fd, MemorySegment buffer, long len, long offset) {
        try {
            return (long) PREAD.invokeExact(callState, fd, buffer, len, offset);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code close(2)}: Linux releases the descriptor even when it fails. */
    static int close(MemorySegment callState, int fd) {
        try {
            return (int) CLOSE.invokeExact(callState, fd);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /** The memory for one call's captured state; freed with {@code arena}. */
    static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    static int close(State s, int fd) {
        try {
            return (int) CLOSE.invokeExact(s.callState, fd);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int shutdown(State s, int fd, int how) {
        try {
            return (int) SHUTDOWN.invokeExact(s.callState, fd, how);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** An {@code IOException} for a failed call: the C library's message and the call, as the JDK words them. */
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
