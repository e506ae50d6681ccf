package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The operating system and JDK a transfer runs on, and what their kernel fast paths can do.
 *
 * <p>Capabilities are data: they are worked out from the OS name, the OS (kernel) version and the
 * JDK feature release, once, by {@link #current()}. Tests and tools build other platforms with
 * {@link #of} to see what the engine would choose on a machine they do not have.
 *
 * <h2>What the JDK does underneath {@code FileChannel.transferTo}</h2>
 * <ul>
 *   <li><b>Linux</b>: {@code sendfile(2)} to a JDK socket, and to a pipe before JDK 25 (JDK 25's
 *       pipes lost the direct path). To a file: {@code copy_file_range(2)} from JDK 20
 *       (JDK-8292562) on kernels 4.5 and later, else {@code sendfile(2)}, which needs kernel 2.6.33
 *       for a non-socket target. The kernel moves at most {@value #LINUX_MAX_BYTES_PER_CALL} bytes
 *       per call (0x7ffff000, {@code MAX_RW_COUNT}).</li>
 *   <li><b>macOS</b>: {@code sendfile(2)} to sockets only; files and pipes get the JDK's
 *       mapped-buffer or heap-buffer copy.</li>
 *   <li><b>Windows</b>: {@code TransmitFile} to a blocking socket, and only when the JVM was
 *       started with {@code -Djdk.nio.enableFastFileTransfer}; never for a non-blocking socket.</li>
 * </ul>
 * Any channel class that is not the JDK's own ({@link ChannelKind#OTHER}) gets the JDK's 8 KiB heap
 * copy on every platform.
 *
 * <p>Instances are immutable and thread-safe.
 */
final class Platform {
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    /**
     * The Linux kernel's per-call limit for {@code read}, {@code write}, {@code sendfile} and
     * {@code copy_file_range}: {@code MAX_RW_COUNT}, {@code INT_MAX} rounded down to a 4 KiB page. The
     * kernel stops there rather than failing; asking for exactly this much keeps the count honest.
     */
    static final long LINUX_MAX_BYTES_PER_CALL = 0x7ffff000L;

    /** The operating systems the capability table knows about. */
    enum OperatingSystem {
        LINUX,
        MACOS,
        WINDOWS,
        OTHER;

        static OperatingSystem fromName(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.startsWith("linux")) {
                return LINUX;
            }
            if (n.startsWith("mac") || n.startsWith("darwin")) {
                return MACOS;
            }
            if (n.startsWith("windows")) {
                return WINDOWS;
            }
            return OTHER;
        }
    }

    private static final Optional<String> SENDFILE = Optional.of("sendfile(2)");
    private static final Optional<String> COPY_FILE_RANGE = Optional.of("copy_file_range(2)");

    private static final Platform CURRENT = of(
            OperatingSystem.fromName(System.getProperty("os.name", "")),
            Runtime.version().feature(),
            System.getProperty("os.version", ""),
            fastFileTransferProperty(System.getProperty("jdk.nio.enableFastFileTransfer")));

    private final OperatingSystem os;
    private final int javaFeature;
    private final String osVersion;
    /** Linux: {@code sendfile} takes any descriptor as its target (kernel 2.6.33). */
    private final boolean sendfileToAnyFd;
    /** Linux: {@code transferTo} to a file goes by {@code copy_file_range} (JDK 20, kernel 4.5). */
    private final boolean copyFileRange;

    private final boolean fastFileTransfer;

    private Platform(OperatingSystem os, int javaFeature, String osVersion, boolean fastFileTransfer) {
        this.os = Objects.requireNonNull(os, "os");
        if (javaFeature < 17) {
            throw new IllegalArgumentException("javaFeature: " + javaFeature + " (expected: >= 17)");
        }
        this.javaFeature = javaFeature;
        this.osVersion = Objects.requireNonNull(osVersion, "osVersion");
        int[] kernel = parseVersion(osVersion);
        this.sendfileToAnyFd = atLeast(kernel, 2, 6, 33);
        this.copyFileRange = javaFeature >= 20 && atLeast(kernel, 4, 5, 0);
        this.fastFileTransfer = fastFileTransfer;
    }

    /** The JDK's own reading of {@code jdk.nio.enableFastFileTransfer}: present and empty, or "true". */
    static boolean fastFileTransferProperty(String value) {
        return value != null && (value.isEmpty() || Boolean.parseBoolean(value));
    }

    /** The platform this JVM runs on, detected once when the class is initialised. */
    static Platform current() {
        return CURRENT;
    }

    /**
     * A platform described by hand, for tests and tools: {@code javaFeature} as
     * {@code Runtime.version().feature()} (17 or later), {@code osVersion} as {@code os.version}, for
     * Linux the kernel release such as {@code "6.8.0-45-generic"}; one that does not parse counts as a
     * very old kernel, so only the portable paths are chosen.
     */
    static Platform of(OperatingSystem os, int javaFeature, String osVersion) {
        return of(os, javaFeature, osVersion, false);
    }

    /**
     * As {@link #of(OperatingSystem, int, String)}, with Windows' {@code jdk.nio.enableFastFileTransfer}
     * on or off; the setting matters only on Windows.
     */
    static Platform of(OperatingSystem os, int javaFeature, String osVersion, boolean fastFileTransfer) {
        return new Platform(os, javaFeature, osVersion, fastFileTransfer);
    }

    OperatingSystem os() {
        return os;
    }

    int javaFeature() {
        return javaFeature;
    }

    String osVersion() {
        return osVersion;
    }

    boolean fastFileTransfer() {
        return fastFileTransfer;
    }

    /**
     * The most bytes one {@code transferTo}, {@code read} or {@code write} call should be asked for
     * on this platform: 0x7ffff000 on Linux, {@code Integer.MAX_VALUE - 1} on Windows (the JDK's own
     * clamp for {@code TransmitFile}), {@code Integer.MAX_VALUE} elsewhere.
     */
    long maxBytesPerCall() {
        return switch (os) {
            case LINUX -> LINUX_MAX_BYTES_PER_CALL;
            case WINDOWS -> Integer.MAX_VALUE - 1L;
            default -> Integer.MAX_VALUE;
        };
    }

    /**
     * The kernel path {@code FileChannel.transferTo} takes from a file to a target of this kind (in
     * non-blocking mode or not), such as {@code "sendfile(2)"}; empty where the JDK copies in user space.
     */
    Optional<String> directTransferPath(ChannelKind target, boolean targetNonBlocking) {
        Objects.requireNonNull(target, "target");
        return switch (os) {
            case LINUX -> linuxPath(target);
            case MACOS -> target == ChannelKind.SOCKET ? SENDFILE : Optional.empty();
            case WINDOWS ->
                target == ChannelKind.SOCKET && fastFileTransfer && !targetNonBlocking
                        ? Optional.of("TransmitFile")
                        : Optional.empty();
            default -> Optional.empty();
        };
    }

    private Optional<String> linuxPath(ChannelKind target) {
        return switch (target) {
            case SOCKET -> SENDFILE;
            case FILE -> copyFileRange ? COPY_FILE_RANGE : sendfileToAnyFd ? SENDFILE : Optional.empty();
            case PIPE -> javaFeature < 25 && sendfileToAnyFd ? SENDFILE : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static boolean atLeast(int[] kernel, int major, int minor, int patch) {
        int[] wanted = {major, minor, patch};
        for (int i = 0; i < 3; i++) {
            if (kernel[i] != wanted[i]) {
                return kernel[i] > wanted[i];
            }
        }
        return true;
    }

    /** Leading "major.minor.patch" of a version string; missing or unparseable parts are 0. */
    private static int[] parseVersion(String version) {
        int[] parts = new int[3];
        int part = 0;
        int i = 0;
        while (part < 3 && i < version.length()) {
            int start = i;
            while (i < version.length() && Character.isDigit(version.charAt(i))) {
                i++;
            }
            if (i == start || i - start > 6) {
                break;
            }
            parts[part++] = Integer.parseInt(version.substring(start, i));
            if (i >= version.length() || version.charAt(i) != '.') {
                break;
            }
            i++;
        }
        return parts;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Platform that
                && os == that.os
                && javaFeature == that.javaFeature
                && osVersion.equals(that.osVersion)
                && fastFileTransfer == that.fastFileTransfer;
    }

    @Override
    public int hashCode() {
        return Objects.hash(os, javaFeature, osVersion, fastFileTransfer);
    }

    @Override
    public String toString() {
        return os + " " + osVersion + ", Java " + javaFeature + (fastFileTransfer ? ", fast file transfer on" : "");
    }

    /** Whether the calling thread is a virtual thread (Java 21 and later): asked by each step, never stored. */
    static boolean currentThreadIsVirtual() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // before Java 21 every thread is a platform thread
        }
    }
}
