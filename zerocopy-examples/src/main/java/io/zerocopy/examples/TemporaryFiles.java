package io.zerocopy.examples;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Files that a command makes for itself and must not leave behind: deleted when closed or, if the
 * JVM stops first (Ctrl-C, SIGTERM), by a shutdown hook, so that an interrupted run does not leave
 * a gigabyte in the temporary directory.
 */
final class TemporaryFiles implements AutoCloseable {
    private final List<Path> paths = new ArrayList<>();
    private final Thread hook = new Thread(this::deleteQuietly, "delete-temporary-files");

    TemporaryFiles() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A new directory in the temporary directory, deleted with all it holds. */
    Path directory(String prefix) throws IOException {
        return add(Files.createTempDirectory(prefix));
    }

    /** Deletes {@code path} (a directory with all it holds) at the end too; returns it. */
    synchronized Path add(Path path) {
        paths.add(path);
        return path;
    }

    /** Deletes the files now, unless the JVM is stopping, when the hook does. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook runs, or has run
        }
        delete();
    }

    private void deleteQuietly() {
        try {
            delete();
        } catch (IOException | RuntimeException e) {
            // the JVM is stopping: nothing more to do
        }
    }

    /** Deletes in reverse order of adding; the first failure is thrown once all were tried. */
    private synchronized void delete() throws IOException {
        IOException failure = null;
        for (int i = paths.size() - 1; i >= 0; i--) {
            try {
                deleteTree(paths.get(i));
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        paths.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Deletes a file, or a directory and all it holds; tries again a few times if a file appears in
     * the directory meanwhile (the command still writing while a hook deletes).
     */
    private static void deleteTree(Path path) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> inside = Files.walk(path)) {
                        for (Path p : inside.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                } else {
                    Files.deleteIfExists(path);
                }
                return;
            } catch (DirectoryNotEmptyException | NoSuchFileException e) {
                if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                    return;
                }
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }
}
