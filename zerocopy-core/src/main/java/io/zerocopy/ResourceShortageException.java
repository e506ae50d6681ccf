package io.zerocopy;

import java.nio.file.FileSystemException;

/**
 * A file could not be opened for lack of descriptors or memory ({@code EMFILE}, {@code ENFILE},
 * {@code ENOMEM}), not because of what the file is or who may read it: trying again later may
 * succeed. A server answers it as unavailable for now (HTTP 503 with {@code Retry-After}), never as
 * forbidden or missing, which a cache in front would keep.
 *
 * <p>{@link OpenFile#open} throws it, with the operating system's words for the shortage as its
 * {@linkplain #getReason() reason} ({@code "Too many open files"} for {@code EMFILE},
 * {@code "Too many open files in system"} for {@code ENFILE}, {@code "Cannot allocate memory"} for
 * {@code ENOMEM} on Linux with glibc) and, where the JDK reported the failure, the JDK's exception as
 * its cause. Other failures keep the JDK's own types ({@code NoSuchFileException},
 * {@code AccessDeniedException}, a {@code FileSystemException} with another reason). Where the
 * operating system words a shortage otherwise than glibc, musl or macOS, it stays a plain
 * {@code FileSystemException}.
 */
public class ResourceShortageException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file the file that could not be opened, or {@code null} if not known
     * @param reason the operating system's words for the shortage, or {@code null} if not known
     */
    public ResourceShortageException(String file, String reason) {
        super(file, null, reason);
    }
}
