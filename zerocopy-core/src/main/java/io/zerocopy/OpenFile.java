package io.zerocopy;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;

/**
 * A file opened for reading together with its attributes, for a server that sends a file and
 * needs its size, last-modified time and kind to write the head: one open serves both, as nginx
 * opens and {@code fstat}s each file once.
 *
 * <pre>{@code
 * long sent;
 * try (OpenFile file = OpenFile.open(path)) {
 *     long size = file.attributes().size();
 *     ByteBuffer head = ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Length: " + size
 *             + "\r\nLast-Modified: " + file.attributes().lastModifiedTime() + "\r\n\r\n")
 *             .getBytes(StandardCharsets.US_ASCII));
 *     sent = Transfers.copy(FileRegion.of(file.channel(), 0, size).withPrefix(head), socket);
 * }
 * }</pre>
 *
 * <p><b>How it opens.</b> On Java 22 or later on Linux, with native access enabled
 * ({@code --enable-native-access=ALL-UNNAMED}, or {@code =io.zerocopy} on the module path), the file
 * is opened with {@code openat(O_RDONLY | O_NONBLOCK)} and its attributes are read with
 * {@code fstat} from that open: they belong to the file that is sent, whatever happens at the path
 * afterwards, and a FIFO does not block the open (though, as with nginx's open, it lets a writer
 * waiting for a reader go on, which then finds none once the FIFO is refused: {@code EPIPE}). Its
 * {@link #channel()} is then the library's own read-only {@code FileChannel}, which every verb of
 * {@link Transfers} takes, and which sends a small file (see {@code native} in the README's
 * strategy table) with one {@code pread} and one write. Everywhere else, or with the
 * {@code native} strategy excluded or another forced by the system properties, the attributes are
 * read by path first (so that a FIFO is refused before an open that would block), then the file is opened with {@code FileChannel.open}, and the path is
 * looked at again: if it names another file by then (a rename raced the open), the file is opened
 * again, so that the attributes describe the file opened. The JDK cannot open without waiting for
 * a FIFO's writer, so on that path a FIFO renamed over the name between the look and the open makes
 * the open wait, as {@code FileChannel.open} would; only the native open rules that out.
 *
 * <p><b>What it opens.</b> A regular file or a directory (whose channel fails when read, as a JDK
 * channel on a directory does). Anything else (a FIFO, a device, a socket) is refused with a
 * {@link FileSystemException} whose reason is {@code "not a regular file or directory"}, and nothing
 * stays open. A missing file, a refused permission or a symbolic link refused by
 * {@link LinkOption#NOFOLLOW_LINKS} throw what {@code FileChannel.open} throws; a lack of
 * descriptors or memory is a {@link ResourceShortageException}, so that a caller can tell "try
 * again later" from "not this file" without reading messages.
 *
 * <p><b>Who owns what.</b> The caller owns this object and closes it; that closes the channel. The
 * channel's size is the file's size now; the attributes are as they were at the open, so a file
 * that shrinks after it is still a {@link TruncatedSourceException} when sent. Thread-safe. A file
 * from an {@link OpenFileCache} shares its channel with the cache's other holders: its close gives
 * the file back, and its channel is read at positions only (see there).
 */
public final class OpenFile implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final BasicFileAttributes attributes;
    /** What {@link #close()} closes: the channel, or an {@link OpenFileCache}'s lease on it. */
    private final Closeable owner;

    OpenFile(Path path, FileChannel channel, BasicFileAttributes attributes) {
        this(path, channel, attributes, channel);
        FileChannels.rememberSizeAtOpen(channel, attributes.size()); // a shrink since is a truncation
    }

    /** A file whose {@link #close()} closes {@code owner} rather than the channel: a cache's lease. */
    OpenFile(Path path, FileChannel channel, BasicFileAttributes attributes, Closeable owner) {
        this.path = path;
        this.channel = channel;
        this.attributes = attributes;
        this.owner = owner;
    }

    /**
     * Opens the file at {@code path} for reading and reads its attributes.
     *
     * @param options {@link LinkOption#NOFOLLOW_LINKS} to refuse a symbolic link at the last step
     * @throws ResourceShortageException if it could not be opened for lack of descriptors or memory
     *     ({@code EMFILE}, {@code ENFILE}, {@code ENOMEM}): not a verdict on the file
     * @throws FileSystemException if it is neither a regular file nor a directory, or as
     *     {@code FileChannel.open} throws it ({@code NoSuchFileException}, {@code AccessDeniedException})
     * @throws IOException if it cannot be opened or its attributes cannot be read
     */
    public static OpenFile open(Path path, LinkOption... options) throws IOException {
        Objects.requireNonNull(path, "path");
        boolean followLinks = true;
        for (LinkOption option : options) {
            followLinks &= Objects.requireNonNull(option, "options") != LinkOption.NOFOLLOW_LINKS;
        }
        boolean follow = followLinks;
        try {
            NativeFile file = Transfers.opensNatively() ? NativeFiles.open(path, followLinks) : null;
            if (file != null) {
                if (file.attributes().isOther()) {
                    file.close();
                    throw OpenFailures.notAFile(path);
                }
                return new OpenFile(path, file, file.attributes());
            }
            return lookedAtTwice(
                    path,
                    () -> {
                        BasicFileAttributes attributes;
                        try {
                            attributes = Files.readAttributes(path, BasicFileAttributes.class, options);
                        } catch (NoSuchFileException e) {
                            throw OpenFailures.missing(path, e);
                        }
                        if (attributes.isOther()) {
                            throw OpenFailures.notAFile(path); // before an open that would block on a FIFO
                        }
                        return attributes;
                    },
                    // a link not to be followed fails here, as it fails the native open (ELOOP)
                    () -> follow
                            ? FileChannel.open(path, StandardOpenOption.READ)
                            : FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        } catch (FileSystemException e) {
            throw OpenFailures.translate(e); // EMFILE, ENFILE, ENOMEM: a ResourceShortageException
        }
    }

    /** Reads a file's attributes by its name, refusing what must not be opened. */
    interface Look {
        BasicFileAttributes attributes() throws IOException;
    }

    /** Opens a file by its name. */
    interface Opening {
        FileChannel open() throws IOException;
    }

    /**
     * Opens a file by name for the JDK's open, which gives no {@code fstat}: the attributes are read
     * by name just before the open and again just after it, and they are taken as the file opened's
     * when both looks agree (file key, size, modification time) and the channel's own size matches.
     * Otherwise a rename raced the open (or a write did): it is tried again, up to
     * {@link #OPEN_TRIES} times. After that, a file that kept its key (written in place without rest)
     * is taken with the first look, as a file written after its open is; one that kept being
     * replaced fails. Where the file system has no file keys, the first look is taken as it is.
     *
     * @throws FileSystemException with the reason {@link #REPLACED} if every try met a rename
     */
    static OpenFile lookedAtTwice(Path path, Look look, Opening opening) throws IOException {
        for (int tries = 1; ; tries++) {
            BasicFileAttributes before = look.attributes();
            FileChannel channel = opening.open();
            boolean settled;
            boolean sameKey;
            try {
                if (before.fileKey() == null) {
                    return new OpenFile(path, channel, before);
                }
                BasicFileAttributes after = look.attributes();
                sameKey = before.fileKey().equals(after.fileKey());
                settled = sameKey
                        && before.size() == after.size()
                        && before.lastModifiedTime().equals(after.lastModifiedTime())
                        && channel.size() == before.size();
            } catch (IOException | RuntimeException | Error e) {
                BeneathOpener.closeAfter(channel, e);
                throw e;
            }
            if (settled || (sameKey && tries == OPEN_TRIES)) {
                return new OpenFile(path, channel, before);
            }
            channel.close();
            if (tries == OPEN_TRIES) {
                throw new FileSystemException(path.toString(), null, REPLACED);
            }
        }
    }

    /** Opens tried while the file changes between the looks: a writer must hit eight windows of microseconds in a row. */
    static final int OPEN_TRIES = 8;

    /** The reason of the {@link FileSystemException} when every try met another file. */
    static final String REPLACED = "replaced by another file at every try to open it";

    /**
     * Opens the file at {@code segments} beneath {@code directory} for reading, and reads its
     * attributes, without ever leaving the directory: every step is opened relative to the one
     * before it and a symbolic link at any step, the last included, is refused, even while another
     * process renames or replaces what is beneath the directory. The same as
     * {@link OpenDirectory#openBeneath} on the directory opened for this one call (see there how,
     * and what window remains); a server that opens many files beneath one root holds an
     * {@link OpenDirectory} instead. To follow links wherever they point, {@link #open} the joined
     * path.
     *
     * @param directory where the walk starts, opened following links in its own path (the caller
     *     trusts it)
     * @param segments the names beneath it, outermost first: none empty, {@code .} or {@code ..},
     *     none holding {@code /} (or another separator of its file system) or NUL; each in the bytes
     *     the JDK encodes it to ({@code directory.resolve(segment)}), as
     *     {@link OpenDirectory#openBeneath} says
     * @throws IllegalArgumentException if a segment is not one plain name, or one the file system
     *     cannot encode ({@link java.nio.file.InvalidPathException}, as {@code Path.resolve} throws)
     * @throws SymbolicLinkException if a segment is a symbolic link
     * @throws NotDirectoryException if {@code directory}, or a segment before the last, is not a directory
     * @throws NoSuchFileException if {@code directory} or a segment is missing
     * @throws java.nio.file.AccessDeniedException if a step may not be searched or the file read
     * @throws FileSystemException if the file is neither a regular file nor a directory
     * @throws IOException if it cannot be opened or its attributes cannot be read
     */
    public static OpenFile openBeneath(Path directory, List<String> segments) throws IOException {
        BeneathOpener.checkSegments(
                Objects.requireNonNull(directory, "directory").getFileSystem(), segments);
        try (OpenDirectory opened = OpenDirectory.open(directory)) {
            return opened.openBeneath(segments);
        }
    }

    /** The path the file was opened at. */
    public Path path() {
        return path;
    }

    /**
     * The file, open for reading; closed by {@link #close()}. Either the JDK's channel or the
     * library's own (see the class description), which answers each call as a read-only JDK
     * channel does (the same exception types; a failed call's message adds the call and its errno),
     * except: an interrupt closes it in none of its own calls (reads, size,
     * position); mapping, locking and {@code transferTo} go through a JDK channel over the same
     * file, reopened through {@code /proc/self/fd} on first use (which fails, naming the file,
     * where {@code /proc} is missing or the file's permissions changed since the open), so an
     * interrupt there closes that JDK channel alone, and with it, as any close of a file's
     * channel does on Linux, the process's locks on the file.
     */
    public FileChannel channel() {
        return channel;
    }

    /**
     * The attributes read when the file was opened: natively from the open itself, else by path
     * just before it and confirmed by a look just after (see the class description). The
     * {@linkplain BasicFileAttributes#fileKey() file key} hashes and prints as the JDK's does; where
     * {@code fstat} gives no creation time, it is the last-modified time.
     */
    public BasicFileAttributes attributes() {
        return attributes;
    }

    /** Whether the file was opened with the kernel's calls rather than {@code FileChannel.open}. */
    public boolean openedNatively() {
        return channel instanceof NativeFile;
    }

    /**
     * Closes the channel; closing again does nothing. A file from an {@link OpenFileCache} gives its
     * lease back instead: the channel stays open for the cache and its other holders.
     */
    @Override
    public void close() throws IOException {
        owner.close();
    }

    @Override
    public String toString() {
        return "OpenFile{" + path + (openedNatively() ? ", opened natively" : "")
                + (owner != channel ? ", from a cache" : "") + "}";
    }
}
