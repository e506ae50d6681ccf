package io.zerocopy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;

/**
 * The bytes the JDK hands the kernel for a {@code Path}, so that a native open names the very file
 * the JDK would: a path of the JDK's own file system (not one a default provider of a program's
 * own makes), a relative path resolved as the JDK resolves it, and the path's own bytes, which its
 * text gives back exactly only in some charsets and only without U+FFFD. Where they cannot be told
 * for sure, null: the JDK opens that path. The JDK decides how it resolves and encodes names once,
 * when it starts, and keeps no public record of either; both are read back here from what its
 * paths do, once per JVM. Thread-safe.
 */
final class KernelNames {
    /** The default file system where it is the JDK's own; null where a program installed another. */
    private static final FileSystem JDK_FILES = jdkFiles();

    /** How the JDK encodes file names, where we can spell them alike (UTF-8, ISO-8859-1, ASCII); else null. */
    private static final Charset NAMES = JDK_FILES == null ? null : namesCharset();

    /** How the JDK resolves a relative path. */
    private enum Relative {
        /** As it is: the kernel resolves it against the working directory. */
        AS_GIVEN,
        /** Against {@code user.dir}: the JDK does so where that was not the working directory, or chdir is allowed. */
        AGAINST_USER_DIR,
        /** Not known for sure: a relative path goes the JDK way. */
        UNKNOWN
    }

    private static final Relative RELATIVE = JDK_FILES == null ? Relative.UNKNOWN : relative();

    private KernelNames() {}

    /** Whether {@code path} is one of the JDK's own file system, whose names the kernel opens. */
    static boolean ofJdkFileSystem(Path path) {
        return path.getFileSystem() == JDK_FILES;
    }

    /** Whether names can be spelled as the JDK spells them in this JVM's charset at all. */
    static boolean canSpellNames() {
        return NAMES != null;
    }

    /**
     * {@code path}'s text as the JDK hands it to the kernel: resolved against {@code user.dir} when
     * the JDK does so, the empty path as the current directory; null for a relative path where how
     * the JDK resolves it is not known. Its bytes: {@link #exactBytes}.
     */
    static String text(Path path) {
        if (!path.isAbsolute()) {
            if (RELATIVE == Relative.UNKNOWN) {
                return null;
            }
            if (RELATIVE == Relative.AGAINST_USER_DIR) {
                path = path.toAbsolutePath();
            }
        }
        String text = path.toString();
        return text.isEmpty() ? "." : text;
    }

    /** Whether {@code text}, all ASCII, is spelled one byte a character: in all three charsets names can be spelled in. */
    static boolean spellsAsAscii(String text) {
        if (NAMES == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** One name beneath a directory, which {@code fs.getPath(entry)} accepted, in the charset the JDK encodes it with. */
    static byte[] ofEntry(String entry) {
        return entry.getBytes(NAMES);
    }

    /** Names beneath a directory, each as {@link #ofEntry} spells it, joined by {@code /} (one byte in all three charsets). */
    static byte[] ofEntries(List<String> entries) {
        return String.join("/", entries).getBytes(NAMES);
    }

    private static FileSystem jdkFiles() {
        FileSystem files = FileSystems.getDefault();
        return files.provider().getClass().getName().equals("sun.nio.fs.LinuxFileSystemProvider") ? files : null;
    }

    /**
     * The charset {@code sun.jnu.encoding} names, where the JDK's paths spell two names (one
     * Latin-1, one Cyrillic) as it does: a program may set the property after the JDK read it.
     */
    private static Charset namesCharset() {
        Charset charset;
        try {
            charset = Charset.forName(System.getProperty("sun.jnu.encoding", ""));
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!charset.equals(StandardCharsets.UTF_8)
                && !charset.equals(StandardCharsets.ISO_8859_1)
                && !charset.equals(StandardCharsets.US_ASCII)) {
            return null;
        }
        for (String probe : List.of("/\u00e9", "/\u0416")) {
            byte[] ours = charset.newEncoder().canEncode(probe) ? probe.getBytes(charset) : null;
            if (!Arrays.equals(ours, jdkBytes(probe))) {
                return null;
            }
        }
        return charset;
    }

    /** The bytes the JDK's path of {@code absolute} holds, read back from its URI; null where it cannot encode them. */
    private static byte[] jdkBytes(String absolute) {
        String uri;
        try {
            uri = Path.of(absolute).toUri().getRawPath();
        } catch (InvalidPathException e) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int end = uri.endsWith("/") ? uri.length() - 1 : uri.length(); // a directory by that name gets a slash
        for (int i = 0; i < end; i++) {
            if (uri.charAt(i) == '%') {
                bytes.write(Integer.parseInt(uri, i + 1, i + 3, 16));
                i += 2;
            } else {
                bytes.write(uri.charAt(i));
            }
        }
        return bytes.toByteArray();
    }

    /**
     * How the JDK resolves a relative path, which it decided when it started: against
     * {@code user.dir} where {@code sun.nio.fs.chdirAllowed} was set or the bytes of
     * {@code user.dir} were not the working directory's. Where those are two directories now,
     * whichever the JDK's own {@code "."} is tells; where they are one, the same rule read now.
     */
    private static Relative relative() {
        try {
            Path userDir = Path.of("").toAbsolutePath(); // the JDK's own default directory, bytes and all
            Path working = Path.of("/proc/self/cwd");
            Object dot = key(Path.of("."));
            Object cwd = key(working);
            Object user = key(userDir);
            if (!cwd.equals(user)) {
                return dot.equals(cwd)
                        ? Relative.AS_GIVEN
                        : dot.equals(user) ? Relative.AGAINST_USER_DIR : Relative.UNKNOWN;
            }
            String chdirAllowed = System.getProperty("sun.nio.fs.chdirAllowed", "false");
            if (chdirAllowed.isEmpty() || Boolean.parseBoolean(chdirAllowed)) {
                return Relative.AGAINST_USER_DIR;
            }
            // one directory: by the same bytes the JDK found them alike; by others (a link) it may not have
            return Files.readSymbolicLink(working).equals(userDir) ? Relative.AS_GIVEN : Relative.UNKNOWN;
        } catch (IOException | RuntimeException e) {
            return Relative.UNKNOWN;
        }
    }

    /** Which file {@code path} is now (device and inode), the link at its end followed. */
    private static Object key(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    /**
     * The bytes the JDK gave the kernel for a name it shows as {@code text}, or null where they
     * cannot be told from the text: another charset than the three that decode without loss of
     * what they can encode, a character the charset cannot encode, or U+FFFD, which stands for bytes
     * that did not decode (a Latin-1 name under a UTF-8 locale, any non-ASCII byte under
     * {@code LC_ALL=C}).
     */
    static byte[] exactBytes(String text) {
        if (NAMES == null) {
            return null;
        }
        if (spellsAsAscii(text)) {
            return text.getBytes(StandardCharsets.US_ASCII); // alike in all three
        }
        return text.indexOf('\uFFFD') >= 0 || !NAMES.newEncoder().canEncode(text) ? null : text.getBytes(NAMES);
    }
}
