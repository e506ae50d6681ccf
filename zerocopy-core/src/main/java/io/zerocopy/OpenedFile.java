package io.zerocopy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** A JDK file the library opened from a path for one transfer, closed with it; its path names it in failures. */
final class OpenedFile implements Closeable {
    final Path path;
    private final FileChannel channel;

    OpenedFile(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** The path of what the library opened for a transfer ({@code owned}: this, or a file opened natively), or null. */
    static Path pathOf(Closeable owned) {
        return owned instanceof OpenedFile
                ? ((OpenedFile) owned).path
                : owned instanceof NativeFile ? ((NativeFile) owned).path() : null;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
