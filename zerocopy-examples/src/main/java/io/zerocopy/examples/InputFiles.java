package io.zerocopy.examples;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Checks of a file named on the command line, made before any work starts. */
final class InputFiles {
    private InputFiles() {}

    /**
     * Why {@code file} cannot be read as a regular file ({@code "no such file: ..."},
     * {@code "access denied: ..."}, {@code "not a regular file: ..."}), or null if it can: its
     * attributes are read and it is opened, so that a directory the user may not search is not
     * taken for a missing file.
     */
    static String unreadable(Path file) {
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
                return "not a regular file: " + file;
            }
            FileChannel.open(file, StandardOpenOption.READ).close();
            return null;
        } catch (IOException e) {
            return Main.describe(e);
        }
    }
}
