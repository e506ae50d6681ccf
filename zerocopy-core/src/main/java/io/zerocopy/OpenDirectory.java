package io.zerocopy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A directory held open, beneath which files are opened without ever leaving it, however what is
 * beneath is renamed or replaced meanwhile: what a server keeps for its root, so that each request
 * opens only the steps below it ({@link OpenFile#openBeneath(Path, List)} opens the directory each
 * time).
 *
 * <pre>{@code
 * long size;
 * try (OpenDirectory root = OpenDirectory.open(Path.of("/srv/www"));
 *         OpenFile file = root.openBeneath(List.of("docs", "index.html"))) {
 *     size = file.attributes().size(); // then send file.channel(), as OpenFile shows
 * }
 * }</pre>
 *
 * <p><b>How.</b> On Java 22 or later on Linux with native access (as {@link OpenFile#open}), the
 * directory is opened with {@code openat}, and the file beneath it with one {@code openat2} with
 * {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS} where the kernel has it (Linux 5.6+; the system
 * property {@code zerocopy.openat2=false}, read once, keeps the walk), else each step with
 * {@code openat} relative to the
 * directory the step before opened, with {@code O_NOFOLLOW | O_NONBLOCK}: the kernel looks the
 * segment up in that open directory alone, a link there fails the open, and each step's
 * attributes come from its own open ({@code fstat}), so no window remains; the file's channel is then
 * the library's own, as {@link OpenFile#open} gives it. Elsewhere, where the file system gives a
 * {@link SecureDirectoryStream} (Linux and the other Unixes, on every JDK 17+), the directory is held by one, each segment but
 * the last is opened as a directory relative to the one before ({@code openat} with
 * {@code O_NOFOLLOW}) and the last relative to its directory the same way, so a symbolic link at any
 * step is refused even if it was put there a moment before. Each step's attributes are looked up by
 * name relative to its open directory ({@code fstatat}, not following links) just before it is opened,
 * so that a link, a FIFO or a device is refused before an open that would follow or block, and the
 * last is looked at again after its open, which is tried again if the entry is another file by then
 * (as {@link OpenFile#open} does), so that the attributes describe the file opened. What remains
 * is a window inside one directory beneath this one: an entry swapped between the look and the open
 * can make the open wait on a FIFO put there; it can never lead outside. Where no secure directory
 * stream is offered, each step is looked at by path and the whole path is then opened by
 * {@link OpenFile#open}: a writer racing that open can lead it through a link. Every directory opened on the way is closed before {@link #openBeneath} returns or
 * throws. This is nginx's {@code disable_symlinks on}; to follow links wherever they point,
 * {@link OpenFile#open} the joined path.
 *
 * <p><b>Who owns what.</b> The caller owns this object and closes it (one descriptor); a file opened
 * beneath it is the caller's too and stays open after this closes. Thread-safe: opens may run
 * concurrently; one that runs into {@link #close()} fails with an {@link IOException}.
 */
public final class OpenDirectory implements Closeable {
    private final Path path;
    private final SecureDirectoryStream<Path> stream;
    /** The directory opened natively, opened beneath by its descriptor; null where {@link #stream} serves. */
    private final NativeFile opened;
    /** Shared by opens beneath, taken alone to release: no open walks from a closed, reused descriptor. */
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    /** Set by {@link #close()}: no open starts after it. */
    private volatile boolean closed;

    /** Whether the descriptor was closed; under the write lock. */
    private boolean released;

    private OpenDirectory(Path path, SecureDirectoryStream<Path> stream, NativeFile opened) {
        this.path = path;
        this.stream = stream;
        this.opened = opened;
    }

    /**
     * Opens the directory at {@code directory}, following links in that path (the caller trusts it).
     *
     * @throws NotDirectoryException if it is not a directory
     * @throws NoSuchFileException if it does not exist
     * @throws IOException if it cannot be opened
     */
    public static OpenDirectory open(Path directory) throws IOException {
        Objects.requireNonNull(directory, "directory");
        NativeFile opened;
        try {
            opened = Transfers.opensNatively() && NativeFiles.opensBeneath() ? NativeFiles.open(directory, true) : null;
        } catch (FileSystemException e) {
            if (e.getClass() != FileSystemException.class) {
                throw e;
            }
            // A refusal the JDK words its own way for a directory (a file on the way, ENOTDIR, is a
            // NotDirectoryException there): its open says it, or opens what the name holds by now.
            return new OpenDirectory(directory, secureStream(directory), null);
        }
        if (opened != null) {
            if (!opened.attributes().isDirectory()) {
                opened.close();
                throw new NotDirectoryException(directory.toString());
            }
            return new OpenDirectory(directory, null, opened);
        }
        return new OpenDirectory(directory, secureStream(directory), null);
    }

    /**
     * {@code directory} opened as a {@link SecureDirectoryStream}, whose operations are relative to
     * the open directory (Linux); null, the stream closed, where its file system gives none.
     */
    static SecureDirectoryStream<Path> secureStream(Path directory) throws IOException {
        DirectoryStream<Path> stream;
        try {
            // Its "." entry: the kernel refuses a FIFO, a file or a device on the way to it (ENOTDIR)
            // before any open, where the JDK's open of the name alone waits for a FIFO's writer.
            stream = Files.newDirectoryStream(directory.resolve("."));
        } catch (IOException e) {
            throw BeneathOpener.named(e, directory);
        }
        if (stream instanceof SecureDirectoryStream) {
            return (SecureDirectoryStream<Path>) stream;
        }
        stream.close();
        return null;
    }

    /**
     * Opens the file at {@code segments} beneath this directory for reading, and reads its
     * attributes, refusing a symbolic link at every step (see the class description). It opens what
     * {@link OpenFile#open} opens: a regular file, or a directory (as the last segment; no segments
     * open this directory itself); anything else is refused with a {@link FileSystemException} whose
     * reason is {@code "not a regular file or directory"}. The file's {@link OpenFile#path()} is
     * {@link #path()} joined with the segments.
     *
     * @param segments the names beneath it, outermost first: none empty, {@code .} or {@code ..},
     *     none holding {@code /} (or another separator of its file system) or NUL; each in the bytes
     *     the JDK encodes it to ({@code path().resolve(segment)}), so a name whose bytes no string
     *     spells in the JVM's charset for names (a Latin-1 name under a UTF-8 locale) cannot be
     *     given: the text it is listed as names another file, or none
     * @throws IllegalArgumentException if a segment is not one plain name, or one the file system
     *     cannot encode ({@link java.nio.file.InvalidPathException}, as {@code Path.resolve} throws)
     * @throws SymbolicLinkException if a segment is a symbolic link
     * @throws NotDirectoryException if a segment before the last is not a directory
     * @throws NoSuchFileException if a segment is missing
     * @throws java.nio.file.AccessDeniedException if a step may not be searched or the file read
     * @throws FileSystemException if the file is neither a regular file nor a directory
     * @throws java.nio.channels.ClosedChannelException if this directory was closed
     * @throws IOException if it cannot be opened or its attributes cannot be read
     */
    public OpenFile openBeneath(List<String> segments) throws IOException {
        lock.readLock().lock();
        try {
            if (closed) {
                throw new ClosedChannelException();
            }
            return opened != null
                    ? BeneathOpener.open(opened, path, segments)
                    : BeneathOpener.open(stream, path, segments);
        } finally {
            lock.readLock().unlock();
            if (closed) {
                try {
                    releaseWhenIdle(); // the last open that outlived close() closes the descriptor
                } catch (IOException e) {
                    // the directory's own close: its descriptor is gone, and the file opened stands
                }
            }
        }
    }

    /** Whether {@link #close()} has not been called: an {@link OpenFileCache} serves nothing beneath a closed one. */
    boolean isOpen() {
        return !closed;
    }

    /** The path this directory was opened at. */
    public Path path() {
        return path;
    }

    /**
     * Whether opens beneath it go relative to open directories, so that no writer racing them can
     * lead them outside; false where the file system offers no {@link SecureDirectoryStream}.
     */
    public boolean isRaceFree() {
        return stream != null || opened != null;
    }

    /**
     * Closes the directory: no open beneath it starts after this; the descriptor closes now, or where
     * opens are in progress, when the last of them ends (this never waits for one: an open that
     * waits on a FIFO swapped in, see the class description, would hold it for good). Files opened
     * beneath it stay open. Closing again does nothing.
     */
    @Override
    public void close() throws IOException {
        closed = true;
        releaseWhenIdle();
    }

    private void releaseWhenIdle() throws IOException {
        if (!lock.writeLock().tryLock()) {
            return; // an open in progress: it releases when it ends
        }
        try {
            if (!released) {
                released = true;
                if (stream != null) {
                    stream.close();
                } else if (opened != null) {
                    opened.close();
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "OpenDirectory{" + path + (opened != null ? ", opened natively" : isRaceFree() ? "" : ", by path") + "}";
    }
}
