package io.zerocopy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens a file beneath a natively opened directory (Java 22+ on Linux with native access; see
 * {@link NativeFiles#openBeneath}) one segment at a time: each step is an {@code openat} relative
 * to the descriptor of the directory the step before opened, with {@code O_NOFOLLOW}, so a segment
 * is looked up in that open directory alone and a link there is refused ({@code ELOOP}); a step on
 * the way opens only as a directory ({@code O_DIRECTORY}). The file's attributes come from its own
 * open ({@code fstat}), and a FIFO does not block it ({@code O_NONBLOCK}), so no window remains
 * between a look and an open. Where the kernel has {@code openat2} (Linux 5.6+) the whole path is
 * one call instead, with {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS}, and the same outcomes.
 */
final class NativeBeneathOpener {
    /** System property, read once: {@code false} keeps the walk where {@code openat2} could serve (to compare them). */
    static final String OPENAT2_PROPERTY = "zerocopy.openat2";

    /** Whether to try {@code openat2} before the walk; tests set it to run the walk alone. */
    static volatile boolean inOneCall = !"false".equals(System.getProperty(OPENAT2_PROPERTY));

    private NativeBeneathOpener() {}

    /** Opens {@code segments} beneath {@code directory}, open at {@code path}; never closes {@code directory}. */
    static OpenFile open(NativeFile directory, Path path, List<String> segments) throws IOException {
        BeneathOpener.checkSegments(path.getFileSystem(), segments);
        if (segments.isEmpty()) {
            return opened(path, step(directory, ".", path, true));
        }
        Path file = path;
        for (String segment : segments) {
            file = file.resolve(segment);
        }
        NativeFile opened = NativeFiles.openBeneath(directory, path, file, segments, inOneCall);
        if (opened == null) {
            throw new IOException("cannot open natively: " + NativeFiles.unavailable());
        }
        return opened(file, opened);
    }

    /** The file opened last, refused without being read if it is a FIFO, a device or a socket. */
    private static OpenFile opened(Path path, NativeFile file) throws IOException {
        if (file.attributes().isOther()) {
            file.close();
            throw OpenFile.notAFile(path);
        }
        return new OpenFile(path, file, file.attributes());
    }

    /** One step: {@code name} in {@code directory}, which must be able to open natively (see {@link OpenDirectory#open}). */
    private static NativeFile step(NativeFile directory, String name, Path at, boolean followLinks) throws IOException {
        NativeFile file = NativeFiles.openAt(directory, name, at, followLinks);
        if (file == null) {
            throw new IOException("cannot open natively: " + NativeFiles.unavailable());
        }
        return file;
    }
}
