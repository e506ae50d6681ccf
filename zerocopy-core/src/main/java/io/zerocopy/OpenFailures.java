package io.zerocopy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.Set;

/**
 * The one place that tells an open which failed for lack of descriptors or memory from one refused
 * for what the file is: the JDK gives both as a {@link FileSystemException} whose reason is the C
 * library's {@code strerror} text, and so does the library's native open.
 */
final class OpenFailures {
    /**
     * {@code strerror} of {@code EMFILE}, {@code ENFILE} and {@code ENOMEM} in glibc (also macOS's
     * words) and in musl, exactly as the JDK puts them in a {@code FileSystemException}'s reason.
     */
    private static final Set<String> SHORTAGES = Set.of(
            "Too many open files", // EMFILE, glibc and macOS
            "No file descriptors available", // EMFILE, musl
            "Too many open files in system", // ENFILE
            "Cannot allocate memory", // ENOMEM, glibc and macOS
            "Out of memory"); // ENOMEM, musl

    private OpenFailures() {}

    /**
     * Whether an open told not to follow links failed on a link ({@code ELOOP}):
     * {@code FileChannel.open} says so with a bare {@code IOException}, naming no file, where every
     * other refusal is a {@link FileSystemException}; the native open uses the same words.
     */
    static boolean refusedLink(IOException failure) {
        return failure.getClass() == IOException.class;
    }

    /**
     * {@code failure} as a {@link ResourceShortageException} (with {@code failure} as its cause) if
     * it is a {@code FileSystemException} whose reason names a shortage; otherwise {@code failure}
     * itself.
     */
    static IOException translate(IOException failure) {
        if (failure instanceof FileSystemException f
                && !(failure instanceof ResourceShortageException)
                && f.getReason() != null
                && SHORTAGES.contains(f.getReason())) {
            ResourceShortageException shortage = new ResourceShortageException(f.getFile(), f.getReason());
            shortage.initCause(failure);
            return shortage;
        }
        return failure;
    }
}
