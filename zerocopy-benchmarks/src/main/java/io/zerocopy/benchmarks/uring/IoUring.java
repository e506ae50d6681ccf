package io.zerocopy.benchmarks.uring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whether the io_uring prototype can run here, and the way to it. The prototype lives in the Java 22
 * part of the benchmarks jar ({@code META-INF/versions/22}), built only with the Maven profile
 * {@code uring} ({@code -Puring}, docs/io-uring.md); on an older JDK, from a jar built without it,
 * without the JVM flags it needs, or where the kernel refuses io_uring, {@link #refusal()} says why
 * and nothing is loaded.
 */
public final class IoUring {
    /** The kernel's switch: 0 allows io_uring, 1 allows it to one group only, 2 refuses it. */
    static final Path DISABLED_SETTING = Path.of("/proc/sys/kernel/io_uring_disabled");

    private static final String IMPLEMENTATION = "io.zerocopy.benchmarks.uring.RingSender";
    private static final String PLAIN = "io.zerocopy.benchmarks.uring.PlainSender";

    private IoUring() {}

    /** Why the prototype cannot run in this JVM, or {@code null} when it can. */
    public static String refusal() {
        String setting;
        try {
            setting = Files.readString(DISABLED_SETTING, StandardCharsets.US_ASCII)
                    .trim();
        } catch (NoSuchFileException e) {
            setting = null;
        } catch (IOException e) {
            return "cannot read " + DISABLED_SETTING + ": " + e.getMessage();
        }
        return refusal(
                System.getProperty("os.name"),
                Runtime.version().feature(),
                built(IMPLEMENTATION),
                setting,
                Object.class.getModule().isExported("sun.nio.ch", IoUring.class.getModule()));
    }

    /**
     * The same answer from the facts it is made of: the system, the Java feature version, whether
     * the prototype's classes are on the class path, the content of {@code io_uring_disabled}
     * ({@code null} when the kernel has no such file), and whether {@code sun.nio.ch} is exported to
     * this code.
     */
    static String refusal(String os, int javaFeature, boolean built, String disabledSetting, boolean socketsReadable) {
        if (!os.startsWith("Linux")) {
            return "io_uring is Linux only; this is " + os;
        }
        if (javaFeature < 22) {
            return "the prototype calls the kernel through java.lang.foreign (Java 22+); this is Java " + javaFeature;
        }
        if (!built) {
            return "the benchmarks jar was built without the prototype: build it with -Puring (docs/io-uring.md)";
        }
        if (disabledSetting != null && !disabledSetting.equals("0")) {
            return "the kernel refuses io_uring to this process (" + DISABLED_SETTING + " is " + disabledSetting + ")";
        }
        if (!socketsReadable) {
            return "a socket's descriptor needs --add-exports java.base/sun.nio.ch=ALL-UNNAMED";
        }
        return null;
    }

    /**
     * A sender; only after {@link #refusal()} said {@code null}. Opens no ring yet: the first
     * {@code send} of each thread does, and fails if the kernel has no io_uring after all.
     *
     * @throws UnsupportedOperationException with the reason when the prototype cannot run here
     */
    public static UringSender sender() {
        return make(IMPLEMENTATION, refusal());
    }

    /**
     * Why the same calls without a ring ({@link #plainSender()}) cannot run in this JVM, or
     * {@code null} when they can: Linux, Java 22+, a jar built with {@code -Puring}.
     */
    public static String plainRefusal() {
        // no ring to set up, and the JDK writes the socket: no descriptor to read
        return refusal(System.getProperty("os.name"), Runtime.version().feature(), built(PLAIN), null, true);
    }

    /**
     * A sender that makes a small file's calls one by one, each its own FFM call (the floor under
     * the library's native file path); only after {@link #plainRefusal()} said {@code null}.
     *
     * @throws UnsupportedOperationException with the reason when it cannot run here
     */
    public static UringSender plainSender() {
        return make(PLAIN, plainRefusal());
    }

    private static boolean built(String implementation) {
        return IoUring.class.getClassLoader().getResource(implementation.replace('.', '/') + ".class") != null;
    }

    private static UringSender make(String implementation, String refusal) {
        if (refusal != null) {
            throw new UnsupportedOperationException(refusal);
        }
        try {
            return (UringSender) Class.forName(implementation).getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new UnsupportedOperationException("the Java 22 part of the benchmarks jar is missing: " + e, e);
        }
    }
}
