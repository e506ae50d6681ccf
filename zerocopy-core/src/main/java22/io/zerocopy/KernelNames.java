package io.zerocopy;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The bytes the JDK hands the kernel for a {@code Path}, so that a native open names the very file
 * the JDK would: a relative path resolved against {@code user.dir} where the JDK does so, and the
 * path's own bytes, which its text gives back exactly only in some charsets and only without
 * U+FFFD. Where they cannot be told for sure, null: the JDK opens that path. Read once per JVM, as
 * the JDK reads its settings once. Thread-safe.
 */
final class KernelNames {
    /** How the JDK encodes file names, where we can spell them alike (UTF-8, ISO-8859-1, ASCII); else null. */
    private static final Charset NAMES = namesCharset(System.getProperty("sun.jnu.encoding", ""));

    /** Whether the JDK resolves a relative path against {@code user.dir}: when that is not the working directory. */
    private static final boolean RESOLVES_RELATIVE = !userDirIsWorkingDirectory();

    private KernelNames() {}

    /** Whether names can be spelled as the JDK spells them in this JVM's charset at all. */
    static boolean canSpellNames() {
        return NAMES != null;
    }

    /**
     * {@code path}'s text as the JDK hands it to the kernel: resolved against {@code user.dir} when
     * the JDK does so, the empty path as the current directory. Its bytes: {@link #exactBytes}.
     */
    static String text(Path path) {
        Path resolved = RESOLVES_RELATIVE && !path.isAbsolute() ? path.toAbsolutePath() : path;
        String text = resolved.toString();
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

    private static Charset namesCharset(String name) {
        try {
            Charset charset = Charset.forName(name);
            return charset.equals(StandardCharsets.UTF_8)
                            || charset.equals(StandardCharsets.ISO_8859_1)
                            || charset.equals(StandardCharsets.US_ASCII)
                    ? charset
                    : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean userDirIsWorkingDirectory() {
        try {
            return Files.isSameFile(Path.of("").toAbsolutePath(), Path.of("/proc/self/cwd"));
        } catch (IOException | RuntimeException e) {
            return false; // resolving against user.dir is then right either way
        }
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
