package io.zerocopy;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The walk behind {@link OpenFile#openBeneath}: a file opened beneath a directory one segment at a
 * time, each relative to the directory the step before opened, none through a symbolic link. Beneath
 * a directory opened natively, {@link NativeFiles#openBeneath} does it (one {@code openat2}, or a walk
 * of {@code openat}); beneath a {@link SecureDirectoryStream} (Linux and the other Unixes, every JDK
 * 17+) each step is an {@code openat} with {@code O_NOFOLLOW}, so no rename or link made meanwhile
 * can lead outside; elsewhere each step is looked at by path and the file opened by path, which a
 * racing writer can defeat.
 */
final class BeneathOpener {
    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    /** Whether a native open tries {@code openat2} before the walk; {@code -Dzerocopy.openat2=false} walks alone. */
    static volatile boolean inOneCall = !"false".equals(System.getProperty("zerocopy.openat2"));

    private BeneathOpener() {}

    /** Opens {@code segments} beneath {@code directory}, opened natively at {@code path}; never closes it. */
    static OpenFile open(NativeFile directory, Path path, List<String> segments) throws IOException {
        checkSegments(path.getFileSystem(), segments);
        Path file = resolved(path, segments);
        NativeFile opened;
        try {
            opened = segments.isEmpty()
                    ? NativeFiles.reopen(directory, path)
                    : NativeFiles.openBeneath(directory, path, file, segments, inOneCall);
        } catch (FileSystemException e) {
            throw OpenFailures.translate(e); // EMFILE, ENFILE, ENOMEM: a ResourceShortageException
        }
        if (opened.attributes().isOther()) {
            opened.close();
            throw OpenFailures.notAFile(file);
        }
        return new OpenFile(file, opened, opened.attributes());
    }

    /**
     * Opens {@code segments} beneath {@code top}, the open directory at {@code directory}, or beneath
     * {@code directory} by path where {@code top} is null; never closes {@code top}.
     */
    static OpenFile open(SecureDirectoryStream<Path> top, Path directory, List<String> segments) throws IOException {
        checkSegments(directory.getFileSystem(), segments);
        Path path = resolved(directory, segments);
        if (top == null) {
            return byPath(directory, segments, path);
        }
        try {
            return walk(top, directory, segments, path);
        } catch (ClosedDirectoryStreamException e) {
            throw (ClosedChannelException) new ClosedChannelException().initCause(e);
        }
    }

    private static Path resolved(Path directory, List<String> segments) {
        Path path = directory;
        for (String segment : segments) {
            path = path.resolve(segment);
        }
        return path;
    }

    /** Refuses a segment that is empty, {@code .}, {@code ..}, or more or other than one name. */
    static void checkSegments(FileSystem fs, List<String> segments) {
        Objects.requireNonNull(segments, "segments");
        for (String segment : segments) {
            Objects.requireNonNull(segment, "segments");
            boolean plain = !segment.isEmpty()
                    && !segment.equals(".")
                    && !segment.equals("..")
                    && segment.indexOf('/') < 0
                    && segment.indexOf('\0') < 0;
            if (plain) {
                Path name = fs.getPath(segment); // one name on this file system too ('\' on Windows)
                plain = !name.isAbsolute()
                        && name.getNameCount() == 1
                        && name.toString().equals(segment);
            }
            if (!plain) {
                throw new IllegalArgumentException(
                        "segments: " + segments + " (expected: names without '/' or NUL, none empty, '.' or '..')");
            }
        }
    }

    /** Each step relative to the last open directory; closes every directory it opened, never {@code top}. */
    private static OpenFile walk(SecureDirectoryStream<Path> top, Path directory, List<String> segments, Path path)
            throws IOException {
        FileSystem fs = directory.getFileSystem();
        if (segments.isEmpty()) {
            BasicFileAttributes attributes =
                    top.getFileAttributeView(BasicFileAttributeView.class).readAttributes(); // fstat
            return new OpenFile(path, channel(top, fs.getPath("."), path), attributes);
        }
        SecureDirectoryStream<Path> dir = top;
        try {
            Path at = directory;
            int last = segments.size() - 1;
            for (int i = 0; i < last; i++) {
                Path name = fs.getPath(segments.get(i));
                at = at.resolve(name);
                BasicFileAttributes attributes = ownAttributes(dir, name, at);
                if (attributes.isSymbolicLink()) {
                    throw new SymbolicLinkException(at.toString());
                }
                if (!attributes.isDirectory()) {
                    // before the open: the JDK leaks a descriptor when fdopendir refuses a file
                    throw new NotDirectoryException(at.toString());
                }
                SecureDirectoryStream<Path> previous = dir;
                try {
                    dir = previous.newDirectoryStream(name, NOFOLLOW);
                } catch (IOException e) {
                    throw refusal(previous, name, at, e);
                }
                if (previous != top) {
                    previous.close();
                }
            }
            Path name = fs.getPath(segments.get(last));
            SecureDirectoryStream<Path> in = dir;
            OpenFile file = OpenFile.lookedAtTwice(
                    path,
                    () -> {
                        BasicFileAttributes attributes = ownAttributes(in, name, path);
                        if (attributes.isSymbolicLink()) {
                            throw new SymbolicLinkException(path.toString());
                        }
                        if (attributes.isOther()) {
                            throw OpenFailures.notAFile(path); // before an open that would block on a FIFO
                        }
                        return attributes;
                    },
                    () -> channel(in, name, path));
            if (dir != top) {
                dir = top;
                try {
                    in.close();
                } catch (IOException e) {
                    closeAfter(file.channel(), e);
                    throw e;
                }
            }
            return file;
        } catch (IOException | RuntimeException e) {
            if (dir != top) {
                closeAfter(dir, e);
            }
            throw e;
        }
    }

    /** The entry {@code name} of {@code dir}, opened for reading without following a link. */
    private static FileChannel channel(SecureDirectoryStream<Path> dir, Path name, Path path) throws IOException {
        SeekableByteChannel channel;
        try {
            channel = dir.newByteChannel(name, READ);
        } catch (IOException e) {
            throw refusal(dir, name, path, e);
        }
        if (!(channel instanceof FileChannel)) {
            channel.close();
            throw new FileSystemException(path.toString(), null, "the file system opened no FileChannel");
        }
        return (FileChannel) channel;
    }

    /** The entry's own attributes ({@code fstatat} with {@code AT_SYMLINK_NOFOLLOW}), failures naming {@code at}. */
    private static BasicFileAttributes ownAttributes(SecureDirectoryStream<Path> dir, Path name, Path at)
            throws IOException {
        try {
            return dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW)
                    .readAttributes();
        } catch (IOException e) {
            throw named(e, at);
        }
    }

    /**
     * What an open that failed after its look means: a link swapped in, by the open's own
     * {@code ELOOP} (whatever the entry is by now) or, where its words are not the C library's
     * English, by looking again; an entry taken away; or else the open's own failure.
     */
    private static IOException refusal(SecureDirectoryStream<Path> dir, Path name, Path at, IOException e) {
        IOException now;
        if (OpenFailures.refusedLink(e)) {
            now = new SymbolicLinkException(at.toString());
            now.initCause(e);
            return now;
        }
        try {
            if (!ownAttributes(dir, name, at).isSymbolicLink()) {
                return named(e, at);
            }
            now = new SymbolicLinkException(at.toString());
        } catch (NoSuchFileException gone) {
            now = new NoSuchFileException(at.toString());
        } catch (IOException again) {
            e.addSuppressed(again);
            return named(e, at);
        }
        now.initCause(e);
        return now;
    }

    /**
     * The JDK's failure of a relative step, naming the whole path instead of the segment; a lack of
     * descriptors or memory a {@link ResourceShortageException}, as every open words it.
     */
    static IOException named(IOException e, Path at) {
        IOException named;
        if (e instanceof NoSuchFileException) {
            named = new NoSuchFileException(at.toString());
        } else if (e instanceof AccessDeniedException) {
            named = new AccessDeniedException(at.toString());
        } else if (e instanceof NotDirectoryException) {
            named = new NotDirectoryException(at.toString());
        } else if (e.getClass() == FileSystemException.class) {
            named = new FileSystemException(at.toString(), null, ((FileSystemException) e).getReason());
        } else {
            return e;
        }
        named.initCause(e);
        return OpenFailures.translate(named);
    }

    /** Where directories cannot be opened relative to each other: each step looked at by path, then one open. */
    private static OpenFile byPath(Path directory, List<String> segments, Path path) throws IOException {
        if (segments.isEmpty()) {
            return OpenFile.open(directory);
        }
        Path at = directory;
        for (int i = 0; i < segments.size(); i++) {
            at = at.resolve(segments.get(i));
            BasicFileAttributes attributes = Files.readAttributes(at, BasicFileAttributes.class, NOFOLLOW);
            if (attributes.isSymbolicLink()) {
                throw new SymbolicLinkException(at.toString());
            }
            if (!attributes.isDirectory() && i < segments.size() - 1) {
                throw new NotDirectoryException(at.toString());
            }
        }
        return OpenFile.open(path, NOFOLLOW);
    }

    static void closeAfter(AutoCloseable opened, Throwable failure) {
        try {
            opened.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
