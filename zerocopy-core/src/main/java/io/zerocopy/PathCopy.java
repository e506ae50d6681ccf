package io.zerocopy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * {@code Files.copy(Path, Path, CopyOption...)}'s options and failure modes around a copy of the
 * bytes by the library: existing targets, copying onto itself, links, attributes, and deleting a
 * partial target.
 */
final class PathCopy {

    /** Moves the bytes of one open file into another; the verbs' whole-file copy. */
    interface Bytes {
        long copy(FileChannel in, FileChannel out) throws IOException;
    }

    private static final Set<StandardOpenOption> NEW_FILE =
            EnumSet.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);

    private PathCopy() {}

    static long copy(Path source, Path target, CopyOption[] copyOptions, Bytes bytes) throws IOException {
        boolean replace = false;
        boolean attributes = false;
        boolean followLinks = true;
        for (CopyOption option : copyOptions) {
            if (option == StandardCopyOption.REPLACE_EXISTING) {
                replace = true;
            } else if (option == StandardCopyOption.COPY_ATTRIBUTES) {
                attributes = true;
            } else if (option == LinkOption.NOFOLLOW_LINKS) {
                followLinks = false;
            } else {
                throw new UnsupportedOperationException(
                        "copyOptions: " + Objects.requireNonNull(option, "copyOptions[i]")
                                + " (expected: REPLACE_EXISTING, COPY_ATTRIBUTES or NOFOLLOW_LINKS)");
            }
        }
        LinkOption[] linkOptions = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        BasicFileAttributes sourceAttributes = Files.readAttributes(source, BasicFileAttributes.class, linkOptions);
        if (!sourceAttributes.isRegularFile()) {
            Files.copy(source, target, copyOptions);
            return 0;
        }
        BasicFileAttributes targetAttributes = existingAttributes(target);
        if (targetAttributes != null) {
            // As Files.copy: the target's own attributes, not its link's destination's, so a link to
            // the source is a different file that REPLACE_EXISTING replaces.
            Object key = sourceAttributes.fileKey();
            if (key != null && key.equals(targetAttributes.fileKey())) {
                return 0;
            }
            if (!replace) {
                throw new FileAlreadyExistsException(target.toString());
            }
            Files.delete(target);
        }
        long moved;
        boolean created = false;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(target, NEW_FILE, sameMode(source))) {
            created = true;
            moved = bytes.copy(in, out);
        } catch (IOException | RuntimeException e) {
            if (created) {
                try {
                    Files.deleteIfExists(target);
                } catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
        if (attributes) {
            copyAttributes(source, target, sourceAttributes);
        }
        return moved;
    }

    /** The target's own attributes (a link is not followed), or null if there is nothing there. */
    private static BasicFileAttributes existingAttributes(Path target) throws IOException {
        try {
            return Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The source's POSIX permissions as a creation attribute, so that the target never exists with
     * wider permissions than the source (a 0600 key must not be readable by others for the length
     * of the copy); the umask applies on top, as it does for {@code Files.copy}. None elsewhere.
     */
    private static FileAttribute<?>[] sameMode(Path source) throws IOException {
        PosixFileAttributeView posix = Files.getFileAttributeView(source, PosixFileAttributeView.class);
        if (posix == null) {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {
            PosixFilePermissions.asFileAttribute(posix.readAttributes().permissions())
        };
    }

    private static void copyAttributes(Path source, Path target, BasicFileAttributes attributes) throws IOException {
        PosixFileAttributeView sourcePosix = Files.getFileAttributeView(source, PosixFileAttributeView.class);
        PosixFileAttributeView targetPosix = Files.getFileAttributeView(target, PosixFileAttributeView.class);
        if (sourcePosix != null && targetPosix != null) {
            targetPosix.setPermissions(sourcePosix.readAttributes().permissions());
        }
        Files.getFileAttributeView(target, BasicFileAttributeView.class)
                .setTimes(attributes.lastModifiedTime(), attributes.lastAccessTime(), null);
    }
}
