package io.zerocopy.benchmarks.scale;

import io.zerocopy.benchmarks.Data;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark's files, in a new temporary directory that is deleted at the end (and on an
 * orderly exit): one source of random bytes per size, read once into the page cache and shared
 * by all N transfers, and the targets of the socket → file pair.
 */
final class Workspace implements AutoCloseable {
    private final Path dir;
    private final Map<Long, Path> sources = new HashMap<>();
    private final Thread cleanup = new Thread(this::deleteQuietly, "scale-workspace-cleanup");

    Workspace() throws IOException {
        dir = Files.createTempDirectory("zerocopy-scale-");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** The source of {@code size} random bytes, written and warmed on first use. */
    synchronized Path source(long size) throws IOException {
        Path source = sources.get(size);
        if (source == null) {
            source = Data.source(dir, size);
            sources.put(size, source);
        }
        return source;
    }

    /** The target file of transfer {@code i}. */
    Path target(int i) {
        return dir.resolve("target-" + i + ".bin");
    }

    /**
     * Creates the targets of a run, empty, before its clock starts: a thousand files created at
     * once queue on the directory's lock, which would time the file system instead of the copy.
     */
    void createTargets(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            Files.deleteIfExists(target(i));
            Files.createFile(target(i));
        }
    }

    /** Deletes the targets of a run before the kernel writes them back. */
    void deleteTargets(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            Files.deleteIfExists(target(i));
        }
    }

    @Override
    public void close() {
        deleteQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or ran
        }
    }

    private void deleteQuietly() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
