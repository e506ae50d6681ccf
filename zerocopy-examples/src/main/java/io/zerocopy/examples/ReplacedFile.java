package io.zerocopy.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * An output file written beside its target and moved over it only when complete, so that a write
 * that fails or is interrupted (Ctrl-C) leaves the previous file as it was, and nothing else.
 */
final class ReplacedFile implements AutoCloseable {

    /** Writes a whole file to a stream. */
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private final Path target;
    private final Path part;
    private final TemporaryFiles cleanup = new TemporaryFiles();
    private final OutputStream out;

    private ReplacedFile(Path target) throws IOException {
        this.target = target;
        this.part = cleanup.add(target.resolveSibling(
                "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".part"));
        try {
            this.out = Files.newOutputStream(part);
        } catch (IOException | RuntimeException e) {
            cleanup.close();
            throw e;
        }
    }

    /** Starts the new content of {@code target}; {@link #commit()} puts it in place. */
    static ReplacedFile open(Path target) throws IOException {
        return new ReplacedFile(target);
    }

    /** Replaces {@code target} with what {@code content} writes, once it has all been written. */
    static void write(Path target, Content content) throws IOException {
        try (ReplacedFile file = open(target)) {
            content.writeTo(file.stream());
            file.commit();
        }
    }

    /** Where the new content goes. */
    OutputStream stream() {
        return out;
    }

    /** Closes the stream and moves the new file over the target, atomically where the file system can. */
    void commit() throws IOException {
        out.close();
        try {
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Closes the stream; without {@link #commit()}, deletes the new file and leaves the target as it was. */
    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            cleanup.close();
        }
    }
}
