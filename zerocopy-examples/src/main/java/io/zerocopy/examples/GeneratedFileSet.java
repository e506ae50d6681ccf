package io.zerocopy.examples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Files of pseudo-random content, one per size, in a new temporary directory; closing deletes them
 * and the directory, as does a JVM stopped first (Ctrl-C: {@link TemporaryFiles}).
 */
final class GeneratedFileSet implements AutoCloseable {
    private final TemporaryFiles temporary;
    private final Path directory;
    private final List<Path> files = new ArrayList<>();

    private GeneratedFileSet(TemporaryFiles temporary, Path directory) {
        this.temporary = temporary;
        this.directory = directory;
    }

    /** An empty set in a new temporary directory whose name starts with {@code prefix}. */
    static GeneratedFileSet temporary(String prefix) throws IOException {
        TemporaryFiles temporary = new TemporaryFiles();
        try {
            return new GeneratedFileSet(temporary, temporary.directory(prefix));
        } catch (IOException | RuntimeException e) {
            temporary.close();
            throw e;
        }
    }

    /** Writes one file per size, {@code file-0.bin} onward, seeded {@code firstSeed}, {@code firstSeed + 1}, ... */
    GeneratedFileSet generate(List<Long> sizes, long firstSeed) throws IOException {
        for (int i = 0; i < sizes.size(); i++) {
            Path file = directory.resolve("file-" + i + ".bin");
            files.add(file);
            GeneratedFile.create(file, sizes.get(i), firstSeed + i);
        }
        return this;
    }

    Path directory() {
        return directory;
    }

    /** The files, in the order of their sizes. */
    List<Path> files() {
        return files;
    }

    @Override
    public void close() throws IOException {
        temporary.close();
    }
}
