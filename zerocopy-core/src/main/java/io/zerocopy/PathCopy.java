package io.zerocopy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
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

        /** Fails where {@link #copy} would before its first byte for its options alone (no strategy left). */
        default void check(FileChannel in) throws IOException {}

        /**
         * Whether the last {@link #copy} moved every byte before it threw: what failed it came
         * after (the listener's {@code onComplete}), and the target is whole.
         */
        default boolean allMoved() {
            return false;
        }
    }

    /** The library's own copy of the file opened from {@code source}, with {@code opener}'s options. */
    static Bytes byTransfer(Opener opener, Path source) {
        return new Bytes() {
            private RealTransfer transfer;

            @Override
            public long copy(FileChannel in, FileChannel out) throws IOException {
                transfer = opener.wholeFile(source, in, out);
                return opener.runToEnd(transfer);
            }

            @Override
            public void check(FileChannel in) throws IOException {
                opener.requireFileToFile(in);
            }

            @Override
            public boolean allMoved() {
                return transfer != null && transfer.isDone();
            }
        };
    }

    private static final Set<StandardOpenOption> NEW_FILE =
            EnumSet.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    /** The reason of a copy without following links whose source became a link after its look. */
    static final String REPLACED_BY_LINK = "replaced by a symbolic link after its look (NOFOLLOW_LINKS)";

    private PathCopy() {}

    static long copy(Path source, Path target, CopyOption[] copyOptions, Bytes bytes) throws IOException {
        boolean replace = false;
        boolean attributes = false;
        boolean followLinks = true;
        for (int i = 0; i < copyOptions.length; i++) {
            CopyOption option = copyOptions[i];
            if (option == StandardCopyOption.REPLACE_EXISTING) {
                replace = true;
            } else if (option == StandardCopyOption.COPY_ATTRIBUTES) {
                attributes = true;
            } else if (option == LinkOption.NOFOLLOW_LINKS) {
                followLinks = false;
            } else {
                throw new UnsupportedOperationException(
                        "copyOptions: " + Objects.requireNonNull(option, "copyOptions[" + i + "]")
                                + " (expected: REPLACE_EXISTING, COPY_ATTRIBUTES or NOFOLLOW_LINKS)");
            }
        }
        LinkOption[] linkOptions = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        BasicFileAttributes sourceAttributes = attributes(source, linkOptions);
        if (!sourceAttributes.isRegularFile() && !sourceAttributes.isSymbolicLink()) {
            // A directory or a special file: Files.copy makes it (a FIFO's bytes it reads and writes
            // too), and it counts as 0 bytes, as the verb's Javadoc says.
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
        }
        if (sourceAttributes.isSymbolicLink()) {
            // The link itself, as Files.copy makes it; handing it to Files.copy would look again and
            // could open a file renamed over the link since.
            Path link = Files.readSymbolicLink(source);
            if (targetAttributes != null) {
                Files.delete(target);
            }
            Files.createSymbolicLink(target, link);
            if (attributes) {
                copyOwner(view(null, target, PosixFileAttributeView.class), sourceAttributes); // lchown
            }
            return 0;
        }
        // The source opened and the options checked before a target is deleted (JDK 25's Files.copy
        // opens first too): a copy that cannot start leaves the file it would have replaced.
        try (FileChannel in = openSource(source, followLinks)) {
            if (targetAttributes != null) {
                bytes.check(in);
                Files.delete(target);
            }
            return copyInto(target, in, sourceAttributes, attributes, bytes);
        }
    }

    /**
     * Makes {@code target} and copies {@code in} into it; a failure deletes what it made. A
     * listener's exception after the last byte ({@link Bytes#allMoved}) fails no copy: the whole
     * target keeps its bytes and gets its attributes, and then the exception is thrown as it is.
     */
    private static long copyInto(
            Path target, FileChannel in, BasicFileAttributes sourceAttributes, boolean attributes, Bytes bytes)
            throws IOException {
        boolean created = false;
        Throwable afterLastByte = null;
        try {
            long moved = 0;
            try (FileChannel out = FileChannel.open(target, NEW_FILE, sameMode(sourceAttributes, attributes))) {
                created = true;
                try {
                    moved = bytes.copy(in, out);
                } catch (RuntimeException | Error e) {
                    if (!bytes.allMoved()) {
                        throw e;
                    }
                    afterLastByte = e;
                }
            }
            if (attributes) {
                copyAttributes(target, sourceAttributes); // a failure here deletes the target too, as Files.copy
            }
            if (afterLastByte instanceof Error error) {
                throw error;
            }
            if (afterLastByte != null) {
                throw (RuntimeException) afterLastByte;
            }
            return moved;
        } catch (IOException | RuntimeException | Error e) {
            if (e == afterLastByte) {
                throw e;
            }
            if (afterLastByte != null) {
                e.addSuppressed(afterLastByte);
            }
            if (created) {
                try {
                    Files.deleteIfExists(target);
                } catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
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
     * The source file for reading. Without following links, a link renamed over the file since its
     * look fails the open ({@code ELOOP}), where {@code Files.copy} would read what the link names;
     * the JDK says so with a bare {@code IOException}, made here one that names the source.
     */
    private static FileChannel openSource(Path source, boolean followLinks) throws IOException {
        if (followLinks) {
            return FileChannel.open(source, StandardOpenOption.READ);
        }
        try {
            return FileChannel.open(source, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            if (OpenFailures.refusedLink(e)) {
                throw (FileSystemException)
                        new FileSystemException(source.toString(), null, REPLACED_BY_LINK).initCause(e);
            }
            throw e;
        }
    }

    /**
     * The source's attributes in one look, its POSIX permissions among them where the file system
     * has them: the mode and times the copy gives the target are those of the file that was looked
     * at, not of whatever the name holds later.
     */
    private static BasicFileAttributes attributes(Path source, LinkOption[] linkOptions) throws IOException {
        PosixFileAttributeView posix = Files.getFileAttributeView(source, PosixFileAttributeView.class, linkOptions);
        return posix != null
                ? posix.readAttributes()
                : Files.readAttributes(source, BasicFileAttributes.class, linkOptions);
    }

    /**
     * The source's POSIX permissions as a creation attribute, so that the target never exists with
     * wider permissions than the source (a 0600 key must not be readable by others for the length
     * of the copy); the umask applies on top, as it does for {@code Files.copy}. None elsewhere.
     * Where the attributes are copied, the owner may also read it until they are
     * ({@link #copyAttributes} opens it to set them).
     */
    private static FileAttribute<?>[] sameMode(BasicFileAttributes source, boolean copiesAttributes) {
        if (!(source instanceof PosixFileAttributes)) {
            return new FileAttribute<?>[0];
        }
        Set<PosixFilePermission> mode = EnumSet.noneOf(PosixFilePermission.class);
        mode.addAll(((PosixFileAttributes) source).permissions());
        if (copiesAttributes) {
            mode.add(PosixFilePermission.OWNER_READ);
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)};
    }

    /**
     * The source's owner and group where the file system has them, as {@code Files.copy} gives them
     * with one {@code fchown} ({@code lchown} for a link) whose failure it ignores: where the process
     * may not set both, the file keeps the owner and group it was made with. A link renamed over the
     * new file fails the copy instead. Returns whether both were set.
     */
    private static boolean copyOwner(PosixFileAttributeView view, BasicFileAttributes source) throws IOException {
        if (!(source instanceof PosixFileAttributes) || view == null) {
            return false;
        }
        try {
            view.setOwner(((PosixFileAttributes) source).owner());
            view.setGroup(((PosixFileAttributes) source).group());
            return true;
        } catch (IOException e) {
            if (OpenFailures.refusedLink(e)) {
                throw e;
            }
            return false;
        }
    }

    /**
     * The source's owner, group, times and permissions on the new file, never through a link
     * renamed over it since the copy made it (that fails the copy): set relative to the open parent
     * directory without following links where the file system gives a {@link SecureDirectoryStream}
     * (Linux), else by name without following links. {@code Files.copy} sets them on the file it
     * holds open, which Java 17 cannot; and JDK 25's {@code PosixFileAttributeView.setPermissions}
     * by name follows a link despite {@code NOFOLLOW_LINKS} (its open takes {@code O_NOFOLLOW} as
     * the mode). As {@code Files.copy}, the permissions are set only where the owner and group were
     * (it makes both changes in one attempt and ignores its failure): elsewhere the file keeps the
     * source's permissions less the umask, without the owner's read it had until then.
     */
    private static void copyAttributes(Path target, BasicFileAttributes source) throws IOException {
        try (SecureDirectoryStream<Path> parent = secureParent(target)) {
            PosixFileAttributeView posix = view(parent, target, PosixFileAttributeView.class);
            boolean owned = copyOwner(posix, source);
            view(parent, target, BasicFileAttributeView.class)
                    .setTimes(source.lastModifiedTime(), source.lastAccessTime(), null);
            if (!(source instanceof PosixFileAttributes) || posix == null) {
                return;
            }
            Set<PosixFilePermission> mode = ((PosixFileAttributes) source).permissions();
            if (owned) {
                setPermissions(posix, mode);
            } else if (!mode.contains(PosixFilePermission.OWNER_READ)) {
                Set<PosixFilePermission> made = posix.readAttributes().permissions();
                made.remove(PosixFilePermission.OWNER_READ);
                setPermissions(posix, made);
            }
        }
    }

    /** Sets {@code mode}, a failure ignored as {@code Files.copy} ignores its {@code fchmod}'s, except a refused link. */
    private static void setPermissions(PosixFileAttributeView view, Set<PosixFilePermission> mode) throws IOException {
        try {
            view.setPermissions(mode);
        } catch (IOException e) {
            if (OpenFailures.refusedLink(e)) {
                throw e;
            }
        }
    }

    /** {@code target}'s own view, not a link's destination's: through {@code parent} where there is one. */
    private static <V extends FileAttributeView> V view(
            SecureDirectoryStream<Path> parent, Path target, Class<V> type) {
        return parent != null
                ? parent.getFileAttributeView(target.getFileName(), type, LinkOption.NOFOLLOW_LINKS)
                : Files.getFileAttributeView(target, type, LinkOption.NOFOLLOW_LINKS);
    }

    /** The directory {@code file} is in, as {@link OpenDirectory#secureStream} opens it; null where it cannot. */
    private static SecureDirectoryStream<Path> secureParent(Path file) {
        try {
            return OpenDirectory.secureStream(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            return null; // not readable, say: by name then
        }
    }
}
