package io.zerocopy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The numbers of the Linux kernel's interface that the native calls pass or read (open flags,
 * system call numbers, errno values, {@code struct stat} offsets, socket options), one table per
 * architecture: they differ ({@code O_NOFOLLOW} is {@code 0400000} on x86-64 and {@code 0100000} on
 * AArch64, where {@code 0400000} is {@code O_LARGEFILE}), so each entry is named by the C expression
 * that gives it, which {@code LinuxAbiHeadersTest} ({@code scripts/abi-probe.sh}) compiles with each
 * architecture's own kernel headers to compare. An architecture without a table here has no native
 * path: the JDK's calls serve it. Immutable.
 */
final class LinuxAbi {
    /** The values every architecture here shares (the kernel's asm-generic headers). */
    private static final Map<String, Long> GENERIC = Map.ofEntries(
            Map.entry("O_RDONLY", 0L),
            Map.entry("O_NONBLOCK", 04000L),
            Map.entry("O_APPEND", 02000L),
            Map.entry("O_CLOEXEC", 02000000L),
            Map.entry("AT_FDCWD", -100L),
            Map.entry("F_GETFL", 3L),
            Map.entry("F_DUPFD_CLOEXEC", 1030L),
            Map.entry("F_SETPIPE_SZ", 1031L),
            Map.entry("F_GETPIPE_SZ", 1032L),
            Map.entry("EPERM", 1L),
            Map.entry("ENOENT", 2L),
            Map.entry("ENXIO", 6L),
            Map.entry("EINTR", 4L),
            Map.entry("EAGAIN", 11L),
            Map.entry("ENOMEM", 12L),
            Map.entry("ENOTDIR", 20L),
            Map.entry("EACCES", 13L),
            Map.entry("ENFILE", 23L),
            Map.entry("EMFILE", 24L),
            Map.entry("ELOOP", 40L),
            Map.entry("E2BIG", 7L),
            Map.entry("EXDEV", 18L),
            Map.entry("ECONNRESET", 104L),
            Map.entry("EINVAL", 22L),
            Map.entry("ENOSYS", 38L),
            Map.entry("RESOLVE_NO_MAGICLINKS", 0x02L),
            Map.entry("RESOLVE_NO_SYMLINKS", 0x04L),
            Map.entry("RESOLVE_BENEATH", 0x08L),
            Map.entry("sizeof(struct open_how)", 24L),
            Map.entry("offsetof(struct open_how, flags)", 0L),
            Map.entry("offsetof(struct open_how, mode)", 8L),
            Map.entry("offsetof(struct open_how, resolve)", 16L),
            Map.entry("POLLIN", 1L),
            Map.entry("POLLOUT", 4L),
            Map.entry("S_IFMT", 0170000L),
            Map.entry("S_IFREG", 0100000L),
            Map.entry("S_IFDIR", 040000L),
            Map.entry("S_IFLNK", 0120000L),
            Map.entry("S_IFIFO", 010000L),
            Map.entry("SOL_SOCKET", 1L),
            Map.entry("SO_MEMINFO", 55L),
            Map.entry("SK_MEMINFO_WMEM_ALLOC", 2L),
            Map.entry("SK_MEMINFO_SNDBUF", 3L),
            Map.entry("SK_MEMINFO_WMEM_QUEUED", 5L),
            Map.entry("SK_MEMINFO_VARS", 9L),
            Map.entry("IPPROTO_TCP", 6L),
            Map.entry("TCP_NOTSENT_LOWAT", 25L),
            Map.entry("SIOCOUTQNSD", 0x894BL),
            Map.entry("offsetof(struct stat, st_dev)", 0L),
            Map.entry("offsetof(struct stat, st_ino)", 8L),
            Map.entry("offsetof(struct stat, st_size)", 48L),
            Map.entry("offsetof(struct stat, st_atime)", 72L),
            Map.entry("offsetof(struct stat, st_atime_nsec)", 80L),
            Map.entry("offsetof(struct stat, st_mtime)", 88L),
            Map.entry("offsetof(struct stat, st_mtime_nsec)", 96L));

    private static final Map<String, LinuxAbi> BY_ARCH = Map.of(
            "x86_64",
            new LinuxAbi(
                    "x86_64",
                    Map.of(
                            "O_NOFOLLOW", 0400000L,
                            "O_DIRECTORY", 0200000L,
                            "__NR_fstat", 5L,
                            "__NR_openat2", 437L,
                            "sizeof(struct stat)", 144L,
                            "offsetof(struct stat, st_mode)", 24L)),
            "aarch64",
            new LinuxAbi(
                    "aarch64",
                    Map.of(
                            "O_NOFOLLOW", 0100000L,
                            "O_DIRECTORY", 040000L,
                            "__NR_fstat", 80L,
                            "__NR_openat2", 437L,
                            "sizeof(struct stat)", 128L,
                            "offsetof(struct stat, st_mode)", 16L)));

    /** This JVM's table, or null where {@code os.arch} has none. */
    private static final LinuxAbi CURRENT = of(System.getProperty("os.arch", ""));

    private final String arch;
    private final Map<String, Long> values;

    private LinuxAbi(String arch, Map<String, Long> own) {
        Map<String, Long> all = new HashMap<>(GENERIC);
        all.putAll(own);
        this.arch = arch;
        this.values = Map.copyOf(all);
    }

    /** The table of the architecture {@code os.arch} names ({@code amd64} is x86-64), or null. */
    static LinuxAbi of(String osArch) {
        return BY_ARCH.get(osArch.equals("amd64") ? "x86_64" : osArch);
    }

    /** This JVM's table, or null where its architecture has none (no native path there). */
    static LinuxAbi current() {
        return CURRENT;
    }

    /** The architectures with a table, as the GNU tool chains name them. */
    static Set<String> architectures() {
        return BY_ARCH.keySet();
    }

    /** Every entry: the C expression and its value on this architecture. */
    Map<String, Long> values() {
        return values;
    }

    /** The value of {@code expression} (a key of {@link #values()}) on this architecture. */
    long get(String expression) {
        Long value = values.get(expression);
        if (value == null) {
            throw new IllegalArgumentException(
                    "expression: " + expression + " (expected: one of " + values.keySet() + ")");
        }
        return value;
    }

    /** As {@link #get}, for a value that is a C {@code int}. */
    int getInt(String expression) {
        return Math.toIntExact(get(expression));
    }

    @Override
    public String toString() {
        return "LinuxAbi(" + arch + ")";
    }
}
