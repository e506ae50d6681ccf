package io.zerocopy.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Random;

/**
 * Source files and scratch space for the benchmarks. Files hold seeded random bytes (a sparse file
 * would let the kernel copy holes for free) and are kept under one directory across forks, so a
 * 1 GiB source is written once per run, not once per trial; {@link CommittedRun} deletes the
 * directory at the end. The directory is {@code -Dzerocopy.bench.dir}, by default
 * {@code java.io.tmpdir/zerocopy-bench}.
 */
public final class Data {
    private Data() {}

    /** The directory holding sources and targets. */
    public static Path dir() throws IOException {
        String configured = System.getProperty("zerocopy.bench.dir");
        Path dir = configured != null
                ? Paths.get(configured)
                : Paths.get(System.getProperty("java.io.tmpdir"), "zerocopy-bench");
        return Files.createDirectories(dir);
    }

    /** A file of {@code size} random bytes, created on first use and read once to warm the page cache. */
    static Path source(long size) throws IOException {
        return source(dir(), size);
    }

    /**
     * A file of {@code size} seeded random bytes in {@code dir}, created unless one of that size is
     * already there, and read once to warm the page cache.
     */
    public static Path source(Path dir, long size) throws IOException {
        Path file = dir.resolve("source-" + size + ".bin");
        if (!Files.exists(file) || Files.size(file) != size) {
            Path partial = Files.createTempFile(dir, "source-", ".partial");
            Random random = new Random(size);
            byte[] chunk = new byte[1 << 20];
            try (FileChannel out = FileChannel.open(partial, StandardOpenOption.WRITE)) {
                for (long written = 0; written < size; ) {
                    random.nextBytes(chunk);
                    ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - written));
                    while (buffer.hasRemaining()) {
                        written += out.write(buffer);
                    }
                }
            }
            Files.move(
                    partial,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        warm(file);
        return file;
    }

    /** A target path in the benchmark directory, unique to this JVM. */
    static Path target(String name) throws IOException {
        return dir().resolve(name + "-" + ProcessHandle.current().pid() + ".bin");
    }

    private static void warm(Path file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            while (in.read(buffer) >= 0) {
                buffer.clear();
            }
        }
    }

    /** Deletes the benchmark directory and everything in it. */
    static void deleteAll() throws IOException {
        Path dir = dir();
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }
}
