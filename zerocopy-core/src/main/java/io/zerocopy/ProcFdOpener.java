package io.zerocopy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * Opens a file beneath a natively opened directory (Java 22+ on Linux with native access; see
 * {@link NativeFiles}) one segment at a time: each step opens {@code /proc/self/fd/N/segment}
 * with {@code O_NOFOLLOW}, where {@code N} is the directory the step before opened. The kernel
 * resolves {@code /proc/self/fd/N} to that open directory itself, not to a path, so the segment is
 * looked up in it alone and a link there is refused ({@code ELOOP}): the same walk as
 * {@code openat(N, segment, O_NOFOLLOW)}, without a binding of its own. Each step's attributes come
 * from its own open ({@code fstat}), and a FIFO does not block it ({@code O_NONBLOCK}), so no window
 * remains between a look and an open.
 */
final class ProcFdOpener {
    /** Where a descriptor's magic link lives; the walk is offered only where it exists. */
    static final Path FDS = Path.of("/proc/self/fd");

    private ProcFdOpener() {}

    /** Opens {@code segments} beneath {@code directory}, open at {@code path}; never closes {@code directory}. */
    static OpenFile open(NativeFile directory, Path path, List<String> segments) throws IOException {
        BeneathOpener.checkSegments(path.getFileSystem(), segments);
        Path file = path;
        for (String segment : segments) {
            file = file.resolve(segment);
        }
        if (segments.isEmpty()) {
            return opened(file, step(FDS.resolve(Integer.toString(directory.descriptor())), file, true));
        }
        NativeFile current = directory;
        try {
            Path at = path;
            for (int i = 0; i < segments.size(); i++) {
                at = at.resolve(segments.get(i));
                Path proc = FDS.resolve(current.descriptor() + "/" + segments.get(i));
                NativeFile previous = current;
                current = step(proc, at, false);
                if (previous != directory) {
                    previous.close();
                }
                if (i < segments.size() - 1 && !current.attributes().isDirectory()) {
                    throw new NotDirectoryException(at.toString());
                }
            }
            OpenFile result = opened(file, current);
            current = directory;
            return result;
        } catch (IOException | RuntimeException e) {
            if (current != directory) {
                BeneathOpener.closeAfter(current, e);
            }
            throw e;
        }
    }

    /** The file opened last, refused without being read if it is a FIFO, a device or a socket. */
    private static OpenFile opened(Path path, NativeFile file) throws IOException {
        if (file.attributes().isOther()) {
            file.close();
            throw OpenFile.notAFile(path);
        }
        return new OpenFile(path, file, file.attributes());
    }

    /**
     * One step; a failure names {@code at}, and an open refused for any other reason than a missing
     * entry or a permission is looked at again, to tell a link ({@code ELOOP}) by type.
     */
    private static NativeFile step(Path proc, Path at, boolean followLinks) throws IOException {
        try {
            NativeFile file = NativeFiles.open(proc, followLinks);
            if (file == null) {
                throw new IOException("cannot open natively: " + NativeFiles.unavailable());
            }
            return file;
        } catch (NoSuchFileException | java.nio.file.AccessDeniedException e) {
            throw BeneathOpener.named(e, at);
        } catch (IOException e) {
            if (!followLinks && e.getClass() == IOException.class) {
                // what NativeFiles.open, as FileChannel.open, throws for O_NOFOLLOW's ELOOP: a link
                // then, even if another one has been swapped back in by now
                throw (SymbolicLinkException) new SymbolicLinkException(at.toString()).initCause(e);
            }
            IOException now;
            try {
                BasicFileAttributes attributes =
                        Files.readAttributes(proc, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (!attributes.isSymbolicLink()) {
                    throw BeneathOpener.named(e, at);
                }
                now = new SymbolicLinkException(at.toString());
            } catch (NoSuchFileException gone) {
                now = new NoSuchFileException(at.toString());
            }
            now.initCause(e);
            throw now;
        }
    }
}
