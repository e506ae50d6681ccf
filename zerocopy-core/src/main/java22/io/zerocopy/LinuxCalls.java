package io.zerocopy;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

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
import java.util.Objects;

/**
 * The Linux system calls of the native paths, bound through the FFM API with {@code errno}
 * captured after each call ({@code Linker.Option.captureCallState}). Binding is a restricted
 * operation: this class is loaded only once native access is known to be enabled, so a JVM without
 * the flag never sees a warning. Each call returns the raw result; a negative one leaves the errno
 * in the caller's memory (a {@link State}, or its call state). Thread-safe; a {@code State} is not.
 * The calls a small file from a path does not make are bound on first use, in holders: a binding
 * costs milliseconds at a process's first transfer.
 */
@SuppressWarnings("restricted")
final class LinuxCalls {
    // splice's flags, shutdown's "how", lseek's "whence": the C library's, alike on every Linux architecture
    static final int SPLICE_F_MOVE = 1;
    static final int SPLICE_F_NONBLOCK = 2;
    static final int SHUT_RDWR = 2;
    static final int SEEK_SET = 0;

    static final long WOULD_BLOCK = -2; // what moved() gives for EAGAIN: a non-blocking end not ready

    /** This architecture's numbers; callers checked that it has a table ({@link LinuxAbi#current()}). */
    static final LinuxAbi ABI = Objects.requireNonNull(
            LinuxAbi.current(), () -> "no kernel interface table for " + System.getProperty("os.arch"));

    static final int F_GETFL = ABI.getInt("F_GETFL");
    static final int F_DUPFD_CLOEXEC = ABI.getInt("F_DUPFD_CLOEXEC");
    static final int F_SETPIPE_SZ = ABI.getInt("F_SETPIPE_SZ");
    static final int F_GETPIPE_SZ = ABI.getInt("F_GETPIPE_SZ");
    static final int O_APPEND = ABI.getInt("O_APPEND");
    static final int O_CLOEXEC = ABI.getInt("O_CLOEXEC");
    static final int O_RDONLY = ABI.getInt("O_RDONLY");
    static final int O_NONBLOCK = ABI.getInt("O_NONBLOCK");
    static final int O_NOFOLLOW = ABI.getInt("O_NOFOLLOW");
    static final int O_DIRECTORY = ABI.getInt("O_DIRECTORY");
    static final int AT_FDCWD = ABI.getInt("AT_FDCWD");
    static final short POLLIN = (short) ABI.getInt("POLLIN");
    static final short POLLOUT = (short) ABI.getInt("POLLOUT");

    /** How every native open reads: a FIFO never blocks the open, and no child process inherits it. */
    static final int OPEN_READ = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

    static final int EINTR = ABI.getInt("EINTR");
    static final int EAGAIN = ABI.getInt("EAGAIN");
    static final int ENOENT = ABI.getInt("ENOENT");
    static final int ENXIO = ABI.getInt("ENXIO");
    static final int EACCES = ABI.getInt("EACCES");
    static final int EPERM = ABI.getInt("EPERM");
    static final int ELOOP = ABI.getInt("ELOOP");
    static final int ENOTDIR = ABI.getInt("ENOTDIR");
    static final int EMFILE = ABI.getInt("EMFILE");
    static final int ENFILE = ABI.getInt("ENFILE");
    static final int ENOMEM = ABI.getInt("ENOMEM");
    static final int ENOSYS = ABI.getInt("ENOSYS");
    static final int EINVAL = ABI.getInt("EINVAL");
    static final int E2BIG = ABI.getInt("E2BIG");
    static final int EXDEV = ABI.getInt("EXDEV");
    static final int ECONNRESET = ABI.getInt("ECONNRESET");

    static final long RESOLVE_BENEATH = ABI.get("RESOLVE_BENEATH");
    static final long RESOLVE_NO_SYMLINKS = ABI.get("RESOLVE_NO_SYMLINKS");
    static final long RESOLVE_NO_MAGICLINKS = ABI.get("RESOLVE_NO_MAGICLINKS");
    static final long OPEN_HOW_BYTES = ABI.get("sizeof(struct open_how)");
    static final long OPEN_HOW_FLAGS = ABI.get("offsetof(struct open_how, flags)");
    static final long OPEN_HOW_MODE = ABI.get("offsetof(struct open_how, mode)");
    static final long OPEN_HOW_RESOLVE = ABI.get("offsetof(struct open_how, resolve)");

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPENAT = bind(
            "openat",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(3));
    /**
     * {@code fstat} as the system call itself, through {@code syscall(2)}: the C library's
     * {@code fstat} makes {@code newfstatat(fd, "", AT_EMPTY_PATH)}, which copies and looks up an
     * empty path in the kernel.
     */
    private static final MethodHandle FSTAT =
            syscall("__NR_fstat", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS));

    private static final MethodHandle PREAD =
            bind("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    /**
     * {@code close}, without capturing {@code errno}: Linux releases the descriptor even when close
     * fails, so no caller asks why, and a close then needs no memory, which may be short.
     */
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    /** A larger file into a socket ({@code sendfile} on a duplicate of its descriptor), and socket waits. */
    private static final class Sockets {
        static final MethodHandle SENDFILE =
                bind("sendfile", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
        static final MethodHandle FCNTL = bind(
                "fcntl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        static final MethodHandle POLL = bind("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        static final MethodHandle SHUTDOWN = bind("shutdown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    /** A {@code splice} relay. */
    private static final class Relay {
        static final MethodHandle SPLICE = bind(
                "splice", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        static final MethodHandle PIPE2 = bind("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle READ = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    /** A failure's words, a position set on the library's own channel, {@code openat2(2)} (through {@code syscall}). */
    private static final class Rare {
        static final MethodHandle STRERROR = LINKER.downcallHandle(
                LINKER.defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        static final MethodHandle LSEEK =
                bind("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
        static final MethodHandle OPENAT2 = syscall(
                "__NR_openat2", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    }

    private LinuxCalls() {}

    /** Binds the calls every native open makes (this class's own); a {@code LinkageError} where they cannot be bound. */
    static void bindOpens() {}

    /** Binds a {@code splice} relay's calls now; a {@code LinkageError} where they cannot be bound. */
    static void bindRelay() {
        Objects.requireNonNull(Relay.SPLICE);
    }

    /** {@code name} in the C library, bound to capture {@code errno}. */
    static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = ERRNO_OPTION;
        System.arraycopy(extra, 0, options, 1, extra.length);
        MemorySegment symbol = LINKER.defaultLookup()
                .find(name)
                .orElseThrow(() -> new UnsupportedOperationException("no symbol " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** {@code syscall(2)} as {@code descriptor} declares it, the number of {@code call} bound as its first argument. */
    private static MethodHandle syscall(String call, FunctionDescriptor descriptor) {
        return MethodHandles.insertArguments(
                bind("syscall", descriptor, Linker.Option.firstVariadicArg(1)), 1, ABI.get(call));
    }

    /** Memory one transfer's calls write into: errno, two pipe descriptors, a file offset, a socket's counters. */
    static final class State {
        final MemorySegment callState;
        final MemorySegment pipeFds;
        final MemorySegment offset;
        /** A {@code struct pollfd}: {@code int fd; short events; short revents}, alike on every Linux. */
        final MemorySegment pollFd;
        /** A socket's counters ({@link SocketRoom}), then their length. */
        final MemorySegment memInfo;

        final MemorySegment memInfoBytes;

        State() {
            // Freed by the GC: a few dozen bytes, and no thread confinement for a step that an event
            // loop may drive from more than one thread.
            this(Arena.ofAuto());
        }

        /** The memory in {@code arena}, freed with it. */
        State(Arena arena) {
            this.callState = arena.allocate(CALL_STATE);
            this.pipeFds = arena.allocate(JAVA_INT, 2);
            this.offset = arena.allocate(JAVA_LONG);
            this.pollFd = arena.allocate(8, 4);
            this.memInfo = arena.allocate(JAVA_INT, SocketRoom.COUNTERS);
            this.memInfoBytes = arena.allocate(JAVA_INT);
        }

        int errno() {
            return LinuxCalls.errno(callState);
        }
    }

    static long splice(State s, int in, MemorySegment offIn, int out, MemorySegment offOut, long len, int flags) {
        try {
            return (long) Relay.SPLICE.invokeExact(s.callState, in, offIn, out, offOut, len, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int pipe2(State s, int flags) {
        try {
            return (int) Relay.PIPE2.invokeExact(s.callState, s.pipeFds, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int fcntl(State s, int fd, int command, int argument) {
        try {
            return (int) Sockets.FCNTL.invokeExact(s.callState, fd, command, argument);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A duplicate of {@code fd} ({@code F_DUPFD_CLOEXEC}), which the caller closes. */
    static int duplicate(State s, int fd) throws IOException {
        int copy = fcntl(s, fd, F_DUPFD_CLOEXEC, 0);
        if (copy < 0) {
            throw failure("fcntl(F_DUPFD_CLOEXEC)", s.errno());
        }
        return copy;
    }

    static long read(State s, int fd, MemorySegment buffer, long len) {
        try {
            return (long) Relay.READ.invokeExact(s.callState, fd, buffer, len);
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

    /** {@code fstat(2)} into {@code stat}, a {@code struct stat} (see {@code LinuxFile.Stat}). */
    static int fstat(MemorySegment callState, int fd, MemorySegment stat) {
        try {
            return (int) (long) FSTAT.invokeExact(callState, fd, stat);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code openat2(2)} of a NUL-terminated path, as {@code how} (a {@code struct open_how}) says. */
    static int openat2(MemorySegment callState, int dirFd, MemorySegment path, MemorySegment how) {
        try {
            return (int) (long) Rare.OPENAT2.invokeExact(callState, dirFd, path, how, how.byteSize());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code sendfile(2)} from {@code in} at {@code *offset} (advanced by what it sends) into {@code out}. */
    static long sendfile(MemorySegment callState, int out, int in, MemorySegment offset, long count) {
        try {
            return (long) Sockets.SENDFILE.invokeExact(callState, out, in, offset, count);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The buffer may be a caller's: its arena closed or another thread's fails as that memory fails. */
    static long pread(MemorySegment callState, int fd, MemorySegment buffer, long len, long offset) {
        try {
            return (long) PREAD.invokeExact(callState, fd, buffer, len, offset);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code lseek(2)}: the new offset, or negative with errno in {@code callState}. */
    static long lseek(MemorySegment callState, int fd, long offset, int whence) {
        try {
            return (long) Rare.LSEEK.invokeExact(callState, fd, offset, whence);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * {@code poll(2)} of descriptor {@code fd} for {@code events} ({@link #POLLIN}, {@link #POLLOUT}),
     * for at most {@code millis}: 1 when it is ready (or has an error or hang-up to report), 0 when
     * the time ran out, negative with errno in {@code s}.
     */
    static int poll(State s, int fd, short events, int millis) {
        s.pollFd.set(JAVA_INT, 0, fd);
        s.pollFd.set(JAVA_SHORT, 4, events);
        s.pollFd.set(JAVA_SHORT, 6, (short) 0);
        try {
            return (int) Sockets.POLL.invokeExact(s.callState, s.pollFd, 1L, millis);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@code close(2)}: Linux releases the descriptor even when it fails. */
    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
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

    static int shutdown(State s, int fd, int how) {
        try {
            return (int) Sockets.SHUTDOWN.invokeExact(s.callState, fd, how);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The bytes a non-blocking move ({@code call}) gave back as {@code n}, {@link #WOULD_BLOCK}, or its failure. */
    static long moved(State s, long n, String call) throws IOException {
        if (n >= 0) {
            return n;
        }
        if (s.errno() == EAGAIN) {
            return WOULD_BLOCK;
        }
        throw failure(call, s.errno());
    }

    /** An {@code IOException} for a failed call: the C library's message and the call, as the JDK words them. */
    static IOException failure(String call, int errno) {
        return new IOException(message(errno) + " (" + call + ", errno " + errno + ")");
    }

    static String message(int errno) {
        try {
            MemorySegment text = (MemorySegment) Rare.STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
