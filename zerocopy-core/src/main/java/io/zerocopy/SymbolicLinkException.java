package io.zerocopy;

import java.nio.file.FileSystemException;
import java.util.Objects;

/**
 * A symbolic link was found where a verb that stays beneath a directory refuses one
 * ({@link OpenFile#openBeneath}): at a step on the way or at the last. A server maps it to a
 * refusal (403) by its type, without reading the message.
 *
 * <p>{@link #getFile()} is the path of the link as the caller spelled it: the directory joined with
 * the segments up to and including the link.
 */
public class SymbolicLinkException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    /** The {@linkplain #getReason() reason} of every such exception. */
    static final String REASON = "symbolic link refused";

    /** @param file the path of the link, as the caller spelled it */
    public SymbolicLinkException(String file) {
        super(Objects.requireNonNull(file, "file"), null, REASON);
    }
}
