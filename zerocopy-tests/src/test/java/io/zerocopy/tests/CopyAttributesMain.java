package io.zerocopy.tests;

import io.zerocopy.Transfers;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Copies each file named under a directory with {@code COPY_ATTRIBUTES} by {@code Files.copy} and by
 * the library, and prints a line per file: {@code file NAME same} where both gave the same outcome
 * (the content, permissions, owner, group and modification time of the copy, or the exception's
 * class), else both outcomes. {@code CopyAttributesTest} runs it without root's powers.
 */
public final class CopyAttributesMain {
    private CopyAttributesMain() {}

    /** {@code DIR NAME...}: the sources are {@code DIR/NAME}, the copies go beside them. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        for (int i = 1; i < args.length; i++) {
            Path source = dir.resolve(args[i]);
            String jdk = outcome(source, dir.resolve(args[i] + ".jdk"), true);
            String library = outcome(source, dir.resolve(args[i] + ".library"), false);
            System.out.println(
                    "file " + args[i] + (jdk.equals(library) ? " same" : " jdk: " + jdk + ", library: " + library));
        }
    }

    private static String outcome(Path source, Path target, boolean byTheJdk) {
        try {
            if (byTheJdk) {
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
            } else {
                Transfers.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
            PosixFileAttributes copy =
                    Files.readAttributes(target, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return PosixFilePermissions.toString(copy.permissions()) + " " + copy.owner() + ":" + copy.group() + " "
                    + copy.lastModifiedTime() + " " + copy.size() + " bytes";
        } catch (Exception e) {
            return e.getClass().getName() + " (exists: " + Files.exists(target, LinkOption.NOFOLLOW_LINKS) + ")";
        }
    }
}
