package com.example.modular;

import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.file.Path;

/** Copies files into an archive folder through zerocopy. */
public final class Archive {
    private final Path folder;

    public Archive(Path folder) {
        this.folder = folder;
    }

    /** Copies {@code file} into the archive under the same name; returns the bytes copied. */
    public long store(Path file) throws IOException {
        return Transfers.copy(file, folder.resolve(file.getFileName()));
    }
}
