package io.zerocopy;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a write into a socket may queue now without waiting in the kernel, read from what the
 * kernel weighs a write against: the send buffer less what is queued ({@code SO_MEMINFO}), and
 * for TCP the limit on bytes queued but not yet sent ({@code TCP_NOTSENT_LOWAT}, the socket's own
 * or else the system's {@code net.ipv4.tcp_notsent_lowat}), past which a write waits however free
 * the buffer is. Each call fails with the kernel's words. Thread-safe; a {@code State} is not.
 */
@SuppressWarnings("restricted")
final class SocketRoom {
    /** How many of {@code SO_MEMINFO}'s counters the kernel fills: the memory a {@code State} keeps for them. */
    static final int COUNTERS = LinuxCalls.ABI.getInt("SK_MEMINFO_VARS");

    static final long UNLIMITED = Long.MAX_VALUE;

    private static final int SOL_SOCKET = LinuxCalls.ABI.getInt("SOL_SOCKET");
    private static final int SO_MEMINFO = LinuxCalls.ABI.getInt("SO_MEMINFO");
    private static final long WMEM_ALLOC = 4L * LinuxCalls.ABI.get("SK_MEMINFO_WMEM_ALLOC");
    private static final long SNDBUF = 4L * LinuxCalls.ABI.get("SK_MEMINFO_SNDBUF");
    private static final long WMEM_QUEUED = 4L * LinuxCalls.ABI.get("SK_MEMINFO_WMEM_QUEUED");
    private static final int IPPROTO_TCP = LinuxCalls.ABI.getInt("IPPROTO_TCP");
    private static final int TCP_NOTSENT_LOWAT = LinuxCalls.ABI.getInt("TCP_NOTSENT_LOWAT");
    private static final long SIOCOUTQNSD = LinuxCalls.ABI.get("SIOCOUTQNSD");

    private static final MethodHandle GETSOCKOPT = LinuxCalls.bind(
            "getsockopt", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));

    /** Bound on first use, where a limit is set: a binding costs milliseconds at a process's first transfer. */
    private static final class Unsent {
        // ioctl(int, unsigned long, ...): the request 64 bits on both tables' architectures
        static final MethodHandle IOCTL = LinuxCalls.bind(
                "ioctl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                Linker.Option.firstVariadicArg(2));
    }

    private SocketRoom() {}

    /**
     * The bytes socket {@code fd} may queue now: its send buffer less what is queued in it or in
     * flight below it, bookkeeping included.
     *
     * @throws IOException if the kernel does not tell (before Linux 4.12, which has no
     *     {@code SO_MEMINFO}), or fills fewer counters than asked for (qemu-user 7.2 and 10 give one)
     */
    static long free(LinuxCalls.State s, int fd) throws IOException {
        if (getsockopt(s, fd, SOL_SOCKET, SO_MEMINFO, 4 * COUNTERS) < 0) {
            throw LinuxCalls.failure("getsockopt(SO_MEMINFO) of the socket", s.errno());
        }
        if (s.memInfoBytes.get(JAVA_INT, 0) < 4 * COUNTERS) {
            throw new IOException("getsockopt(SO_MEMINFO) gave fewer counters than asked for");
        }
        long used = Math.max(counter(s, WMEM_QUEUED), counter(s, WMEM_ALLOC));
        return Math.max(0, counter(s, SNDBUF) - used);
    }

    /** The send buffer's size that {@link #free} last read. */
    static long buffer(LinuxCalls.State s) {
        return counter(s, SNDBUF);
    }

    /**
     * The most bytes socket {@code fd} holds unsent before a write waits: its own
     * {@code TCP_NOTSENT_LOWAT}, else the system's; {@link #UNLIMITED} for none, or for a socket
     * that is not TCP.
     */
    static long notSentLimit(LinuxCalls.State s, int fd) throws IOException {
        if (getsockopt(s, fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, 4) < 0) {
            return UNLIMITED; // not TCP: a Unix domain socket has no such limit
        }
        long own = counter(s, 0);
        long limit = own != 0 ? own : SystemLimit.VALUE;
        return limit >= 0xffffffffL ? UNLIMITED : limit; // the kernel's default, and its largest
    }

    /** The bytes socket {@code fd} holds queued and not yet sent ({@code SIOCOUTQNSD}). */
    static long notSent(LinuxCalls.State s, int fd) throws IOException {
        int result;
        try {
            result = (int) Unsent.IOCTL.invokeExact(s.callState, fd, SIOCOUTQNSD, s.memInfo);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        if (result < 0) {
            throw LinuxCalls.failure("ioctl(SIOCOUTQNSD) of the socket", s.errno());
        }
        return counter(s, 0);
    }

    /** The system's limit, for every socket that sets none; read once. 0 where it cannot be read. */
    private static final class SystemLimit {
        static final long VALUE = read();

        private static long read() {
            try {
                // in one read: a sysctl read at any offset but 0 finds the end (Files.readString reads one byte first)
                return Long.parseLong(Files.readAllLines(Path.of("/proc/sys/net/ipv4/tcp_notsent_lowat"))
                        .get(0)
                        .strip());
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }
    }

    /** Whether the system's limit could be read: where it cannot, {@link #notSentLimit} is not known. */
    static boolean systemLimitKnown() {
        return SystemLimit.VALUE > 0;
    }

    private static int getsockopt(LinuxCalls.State s, int fd, int level, int option, int bytes) {
        s.memInfoBytes.set(JAVA_INT, 0, bytes);
        try {
            return (int) GETSOCKOPT.invokeExact(s.callState, fd, level, option, s.memInfo, s.memInfoBytes);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static long counter(LinuxCalls.State s, long offset) {
        return Integer.toUnsignedLong(s.memInfo.get(JAVA_INT, offset));
    }
}
