package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens a file with the calls nginx makes: {@code openat(O_RDONLY | O_NONBLOCK | O_CLOEXEC)}, so
 * that a FIFO never blocks the open ({@link FifoReads}), then {@code fstat} for its attributes. No
 * {@code FileChannel}, no stat by path. Needs Linux on x86-64 or AArch64 (whose {@code struct stat}
 * is known here) and {@code --enable-native-access}; without them {@link #open} returns null. Thread-safe.
 */
final class NativeFiles {
    private static final String UNAVAILABLE = check();

    private NativeFiles() {}

    /** Why files cannot be opened natively in this JVM, or null when they can. */
    static String unavailable() {
        return UNAVAILABLE;
    }

    private static String check() {
        if (Platform.current().os() != Platform.OperatingSystem.LINUX) {
            return "opening a file natively is Linux only; this is "
                    + Platform.current().os();
        }
        if (LinuxAbi.current() == null) {
            return "no kernel interface table checked against its headers for " + System.getProperty("os.arch");
        }
        if (!NativeFiles.class.getModule().isNativeAccessEnabled()) {
            return "opening a file natively needs --enable-native-access=" + Descriptors.flagTarget();
        }
        try {
            LinuxCalls.bindOpens();
            return null;
        } catch (RuntimeException | LinkageError e) {
            return "openat and fstat could not be bound through the FFM API: " + e;
        }
    }

    /**
     * The file at {@code path}, opened read-only and without blocking, with its attributes, as
     * {@link OpenFile} opens it; null where this JVM cannot open files natively, the path is not the
     * JDK's own file system's, or its name cannot be told for sure ({@link KernelNames}).
     *
     * @throws IOException what {@code FileChannel.open} throws for the same failure
     *     ({@code NoSuchFileException}, {@code AccessDeniedException}, ...), except that a name whose
     *     kind refuses the open ({@code ENXIO}: a socket, a device without its driver) is refused
     *     as {@link OpenFile} refuses every file that is neither regular nor a directory
     *     ({@link OpenFailures#notAFile})
     */
    static NativeFile open(Path path, boolean followLinks) throws IOException {
        return open(path, followLinks, true, true);
    }

    /**
     * As {@link #open(Path, boolean)}, following links, for a transfer's source. {@code watched}
     * where the caller may never end the transfer; a blocking verb closes the file before it
     * returns, whatever happens.
     */
    static NativeFile openSource(Path path, boolean watched) throws IOException {
        return open(path, true, watched, false);
    }

    private static NativeFile open(Path path, boolean followLinks, boolean watched, boolean asOpenFile)
            throws IOException {
        if (UNAVAILABLE != null || !KernelNames.ofJdkFileSystem(path)) {
            return null;
        }
        Scratch s = Scratch.lendOrNull();
        if (s == null) {
            return null;
        }
        try (s) {
            MemorySegment name = s.nameOrNull(path);
            return name == null ? null : open(LinuxCalls.AT_FDCWD, path, name, followLinks, watched, asOpenFile, s);
        }
    }

    /** Whether names beneath a directory opened here can be opened in this JVM. */
    static boolean opensBeneath() {
        return UNAVAILABLE == null && KernelNames.canSpellNames();
    }

    /**
     * {@code directory} (a directory opened here at {@code path}) opened again through its
     * {@code "."}, as {@link #open} opens a path. Null where {@link #opensBeneath} says no.
     */
    static NativeFile reopen(NativeFile directory, Path path) throws IOException {
        if (!opensBeneath()) {
            return null;
        }
        Scratch s = Scratch.lendOrNull();
        if (s == null) {
            return null;
        }
        LinuxFile dir = (LinuxFile) directory;
        int dirFd = dir.hold();
        try (s) {
            return open(dirFd, path, s.name("."), true, true, true, s);
        } finally {
            dir.release();
        }
    }

    /**
     * The file at {@code segments} (at least one) beneath {@code directory}, a directory opened here
     * at {@code directoryPath}; the file is at {@code file}. Where {@code inOneCall}, one
     * {@code openat2} ({@link Openat2Beneath}); else, or where that leaves it to the walk, each segment
     * but the last opened relative to the one before with {@code O_DIRECTORY | O_NOFOLLOW} (no
     * {@code fstat}, closed after the next step), the last as {@link #open} opens a path, without
     * following a link. A link on the way is a {@link SymbolicLinkException}, a file a
     * {@code NotDirectoryException}, each naming the path up to it. Null where {@link #opensBeneath}
     * says no.
     */
    static NativeFile openBeneath(
            NativeFile directory, Path directoryPath, Path file, List<String> segments, boolean inOneCall)
            throws IOException {
        if (!opensBeneath()) {
            return null;
        }
        Scratch s = Scratch.lendOrNull();
        if (s == null) {
            return null;
        }
        LinuxFile top = (LinuxFile) directory;
        int dirFd = top.hold();
        try (s) {
            int fd = inOneCall ? Openat2Beneath.open(s, dirFd, file, segments) : Openat2Beneath.NOT_TRIED;
            if (fd >= 0) {
                return opened(fd, file, true, s);
            }
            NativeFile walked = walk(s, dirFd, directoryPath, segments);
            if (fd != Openat2Beneath.NOT_TRIED) {
                Openat2Beneath.walkOpened(-fd);
            }
            return walked;
        } finally {
            top.release();
        }
    }

    /** {@link #openBeneath}'s walk from {@code dirFd}, which it never closes. */
    private static NativeFile walk(Scratch s, int dirFd, Path directoryPath, List<String> segments) throws IOException {
        int owned = -1; // a directory opened on the way, not the caller's
        try {
            Path at = directoryPath;
            int last = segments.size() - 1;
            int stepFlags = LinuxCalls.O_RDONLY | LinuxCalls.O_DIRECTORY | LinuxCalls.O_NOFOLLOW | LinuxCalls.O_CLOEXEC;
            for (int i = 0; i < last; i++) {
                at = at.resolve(segments.get(i));
                int fd = openRetrying(s, dirFd, s.name(segments.get(i)), stepFlags);
                if (fd < 0) {
                    throw stepFailure(s, dirFd, at, LinuxCalls.errno(s.callState));
                }
                if (owned >= 0) {
                    LinuxCalls.close(owned);
                }
                owned = fd;
                dirFd = fd;
            }
            at = at.resolve(segments.get(last));
            try {
                return open(dirFd, at, s.name(segments.get(last)), false, true, true, s);
            } catch (IOException e) {
                if (OpenFailures.refusedLink(e)) {
                    throw (SymbolicLinkException) new SymbolicLinkException(at.toString()).initCause(e);
                }
                throw e;
            }
        } finally {
            if (owned >= 0) {
                LinuxCalls.close(owned);
            }
        }
    }

    /**
     * A directory step's failure, named by the path up to it. {@code O_DIRECTORY} refuses a link
     * and a file alike ({@code ENOTDIR}), so that refusal is told apart by opening the entry once
     * more without it: a link then fails with {@code ELOOP}, a file opens. An entry that is a
     * directory by then was swapped meanwhile, and is refused as a link; either answer refuses it.
     */
    private static IOException stepFailure(Scratch s, int dirFd, Path at, int errno) {
        if (errno == LinuxCalls.ENOTDIR) {
            int fd = openRetrying(
                    s, dirFd, s.name(at.getFileName().toString()), LinuxCalls.OPEN_READ | LinuxCalls.O_NOFOLLOW);
            if (fd < 0) {
                int again = LinuxCalls.errno(s.callState);
                return again == LinuxCalls.ELOOP
                        ? new SymbolicLinkException(at.toString())
                        : again == LinuxCalls.ENOENT
                                ? new NoSuchFileException(at.toString()) // taken away meanwhile
                                : new NotDirectoryException(at.toString());
            }
            boolean directoryNow = LinuxCalls.fstat(s.callState, fd, s.stat) == 0
                    && LinuxFile.Stat.attributes(s.stat, s.statWords).isDirectory();
            LinuxCalls.close(fd);
            return directoryNow ? new SymbolicLinkException(at.toString()) : new NotDirectoryException(at.toString());
        }
        if (errno == LinuxCalls.ELOOP) {
            return new SymbolicLinkException(at.toString());
        }
        return failure(at, errno);
    }

    private static int openRetrying(Scratch s, int dirFd, MemorySegment name, int flags) {
        int fd;
        do {
            fd = LinuxCalls.openat(s.callState, dirFd, name, flags);
        } while (fd < 0 && LinuxCalls.errno(s.callState) == LinuxCalls.EINTR);
        return fd;
    }

    /**
     * {@code watched}: a cleaner closes the file if it becomes unreachable unclosed ({@link LinuxFile});
     * {@code asOpenFile}: {@code ENXIO} is refused as {@link OpenFailures#notAFile}.
     */
    private static NativeFile open(
            int dirFd,
            Path path,
            MemorySegment name,
            boolean followLinks,
            boolean watched,
            boolean asOpenFile,
            Scratch s)
            throws IOException {
        int fd = openRetrying(s, dirFd, name, LinuxCalls.OPEN_READ | (followLinks ? 0 : LinuxCalls.O_NOFOLLOW));
        if (fd < 0) {
            int errno = LinuxCalls.errno(s.callState);
            if (errno == LinuxCalls.ELOOP && !followLinks) {
                // FileChannel.open's own words for a link it was told not to follow
                throw new IOException(LinuxCalls.message(errno) + " (NOFOLLOW_LINKS specified)");
            }
            if (errno == LinuxCalls.ENXIO && asOpenFile) {
                throw (FileSystemException) OpenFailures.notAFile(path).initCause(failure(path, errno));
            }
            throw failure(path, errno);
        }
        return opened(fd, path, watched, s);
    }

    /** The file just opened at {@code fd}, with its attributes ({@code fstat}); closes {@code fd} if that fails. */
    private static NativeFile opened(int fd, Path path, boolean watched, Scratch s) throws IOException {
        if (LinuxCalls.fstat(s.callState, fd, s.stat) < 0) {
            int errno = LinuxCalls.errno(s.callState);
            LinuxCalls.close(fd);
            throw failure(path, errno);
        }
        return new LinuxFile(path, fd, LinuxFile.Stat.attributes(s.stat, s.statWords), watched);
    }

    /**
     * Whether a file opened natively can be sent into {@code target} with {@code sendfile(2)}: a JDK
     * socket whose descriptor this JVM lets the library read ({@code --add-exports java.base/sun.nio.ch}).
     */
    static boolean canSendTo(WritableByteChannel target) {
        return target != null && sendsToKind(ChannelKinds.of(target));
    }

    /**
     * Whether a target of {@code kind} can be sent into with {@code sendfile}: a JDK socket, its
     * descriptor readable, on a kernel that tells its send room ({@link SocketWaits#roomKnown}).
     */
    private static boolean sendsToKind(ChannelKind kind) {
        return kind == ChannelKind.SOCKET && Descriptors.canReadSockets() && SocketWaits.roomKnown();
    }

    /** Whether {@code file} can be sent into a target of {@code kind} with {@code sendfile}: a file opened here. */
    static boolean canSendfile(FileChannel file, ChannelKind kind) {
        return file instanceof LinuxFile && sendsToKind(kind);
    }

    /** The exception the JDK throws for {@code errno} on {@code path} (as its file system provider words it). */
    static IOException failure(Path path, int errno) {
        String file = path.toString();
        if (errno == LinuxCalls.ENOENT) {
            return new NoSuchFileException(file);
        }
        if (errno == LinuxCalls.EACCES) {
            return new AccessDeniedException(file);
        }
        String message = LinuxCalls.message(errno); // a shortage too: OpenFailures tells it by these words
        return new FileSystemException(
                file,
                null,
                errno == LinuxCalls.ELOOP ? message + " or unable to access attributes of symbolic link" : message);
    }
}
