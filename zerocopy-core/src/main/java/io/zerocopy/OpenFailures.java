package io.zerocopy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The one place that tells an open which failed for lack of descriptors or memory from one refused
 * for what the file is: the JDK gives both as a {@link FileSystemException} whose reason is the C
 * library's {@code strerror} text, and so does the library's native open. Also the one place that
 * words a name a look found missing as the JDK's open would word it ({@link #missing}).
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

    /** The reason of the {@link FileSystemException} for a file that is neither regular nor a directory. */
    static final String NOT_A_FILE = "not a regular file or directory";

    private OpenFailures() {}

    /**
     * The refusal of a file that is neither regular nor a directory (a FIFO, a device, a socket), as
     * {@link OpenFile} and the opens beneath a directory word it, whichever way they opened.
     */
    static FileSystemException notAFile(Path path) {
        return new FileSystemException(path.toString(), null, NOT_A_FILE);
    }

    /** {@code strerror} of {@code ELOOP} in glibc and in musl, as the JDK starts a reason with it. */
    private static final List<String> LINK_LOOPS = List.of("Too many levels of symbolic links", "Symbolic link loop");

    /**
     * Whether an open told not to follow links failed on a link ({@code ELOOP}): a file's open
     * ({@code FileChannel.open}, a {@code SecureDirectoryStream}'s {@code newByteChannel}) says so
     * with a bare {@code IOException}, naming no file, where every other refusal is a
     * {@link FileSystemException}, and the native open uses the same words; a directory's open
     * ({@code newDirectoryStream}) with a {@code FileSystemException} whose reason is
     * {@code ELOOP}'s.
     */
    static boolean refusedLink(IOException failure) {
        if (failure.getClass() == IOException.class) {
            return true;
        }
        String reason =
                failure.getClass() == FileSystemException.class ? ((FileSystemException) failure).getReason() : null;
        return reason != null && LINK_LOOPS.stream().anyMatch(reason::startsWith);
    }

    /**
     * What the JDK's open of {@code path} fails with, where a look by name found nothing: JDK 25's
     * {@code stat} calls a path through a file ({@code ENOTDIR}) missing, where its open says "Not a
     * directory". Reading the name as a link ({@code readlink}, which neither opens nor follows the
     * last step, so never blocks on a FIFO) fails in the open's words; where it finds something
     * after all, the name changed meanwhile and {@code missing} stands.
     */
    static IOException missing(Path path, NoSuchFileException missing) {
        try {
            Files.readSymbolicLink(path);
        } catch (IOException e) {
            if (e.getClass() == FileSystemException.class) {
                return e; // ENOTDIR: what neither a missing file nor a found one is
            }
        } catch (UnsupportedOperationException e) {
            // a file system without links: nothing else to ask
        }
        return missing;
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
