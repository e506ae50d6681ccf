package com.example.modular;

import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Copies files into an archive folder through zerocopy. */
public final class Archive {
    private final Path folder;

    public Archive(Path folder) {
        this.folder = folder;
    }

    /** Copies {@code file} into the archive under the same name; returns the bytes copied. */
    public long store(Path file) throws IOException {
        try (FileChannel copy = FileChannel.open(folder.resolve(file.getFileName()),
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            return Transfers.copy(file, copy);
        }
    }
}
