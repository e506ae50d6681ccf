package io.zerocopy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * A file {@link NativeFiles} opened: read with {@code pread} straight into a direct buffer, sized
 * with {@code fstat}. One never closed is closed once unreachable, with a warning that names it
 * ({@link #CLEANER}). Each call holds the descriptor, so a close from another thread releases it only
 * once the last call in flight returns: no read lands on a number the kernel handed out again.
 */
final class LinuxFile extends NativeFile {
    private final int fd;
    private final BasicFileAttributes attributes;
    /** 1 for the open file, plus one per call in flight; 0 once the descriptor is closed. */
    private final AtomicInteger holds = new AtomicInteger(1);

    /** The cleaner's action and registration, or null for a file its opener always closes. */
    private final Unreachable onRelease;

    private final Cleaner.Cleanable cleanable;

    /** {@code watched}: the cleaner closes the file if it becomes unreachable unclosed. */
    LinuxFile(Path path, int fd, BasicFileAttributes attributes, boolean watched) {
        super(path);
        this.fd = fd;
        this.attributes = attributes;
        this.onRelease = watched ? new Unreachable(path, fd, holds) : null;
        this.cleanable = watched ? Cleaners.register(this, onRelease) : null; // as the JDK's channels
    }

    /**
     * The cleaner's action: releases the open file's hold; on its own, for a file never closed, it
     * says so. A class, not a record: a flag field costs no second object per open file.
     */
    private static final class Unreachable implements Runnable {
        private final Path path;
        private final int fd;
        private final AtomicInteger holds;
        /** Set by {@link #closeDescriptor()} before it runs this: a close, not a leak. */
        volatile boolean closed;

        Unreachable(Path path, int fd, AtomicInteger holds) {
            this.path = path;
            this.fd = fd;
            this.holds = holds;
        }

        @Override
        public void run() {
            if (!closed) {
                LoggerFactory.getLogger(LinuxFile.class)
                        .warn(
                                "a file opened natively was never closed; its descriptor {} is closed now that it is"
                                        + " unreachable: {}",
                                fd,
                                path);
            }
            release(holds, fd);
        }
    }

    @Override
    BasicFileAttributes attributes() {
        return attributes;
    }

    @Override
    int descriptor() {
        return fd;
    }

    /**
     * Checks as the JDK's channel checks, in its order (the channel open before the buffer
     * writable); a heap buffer is filled through the scratch's bounce buffer until it is full or
     * the file ends, as the JDK's one read into a temporary buffer of its size fills it.
     */
    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        Objects.requireNonNull(dst, "dst");
        Checks.notNegative(position, "position");
        hold();
        try (Scratch s = Scratch.lend()) {
            if (dst.isReadOnly()) {
                throw new IllegalArgumentException("Read-only buffer");
            }
            if (!dst.hasRemaining()) {
                return 0;
            }
            if (dst.isDirect()) {
                int n = pread(s, MemorySegment.ofBuffer(dst), position);
                dst.position(dst.position() + n); // a native read leaves the position alone
                return n == 0 ? -1 : n;
            }
            checkReadEnd(position, dst.remaining()); // the JDK's one call would be refused whole
            int total = 0;
            while (dst.hasRemaining()) {
                MemorySegment into = s.bounce(dst.remaining());
                int n = pread(s, into, position + total);
                MemorySegment.copy(into, ValueLayout.JAVA_BYTE, 0, dst.array(), dst.arrayOffset() + dst.position(), n);
                dst.position(dst.position() + n);
                total += n;
                if (n < into.byteSize()) {
                    break; // the end of the file
                }
            }
            return total == 0 ? -1 : total;
        } finally {
            release();
        }
    }

    @Override
    boolean isFifo() {
        return ((Attributes) attributes).type == Stat.S_IFIFO;
    }

    @Override
    int readFifo(ByteBuffer dst) throws IOException {
        hold();
        try {
            return FifoReads.read(this, fd, dst);
        } finally {
            release();
        }
    }

    /** Asks {@code lseek} itself, the JDK's call: each file system has its own limit. */
    @Override
    void checkPosition(long newPosition) throws IOException {
        hold();
        try (Scratch s = Scratch.lend()) {
            if (LinuxCalls.lseek(s.callState, fd, newPosition, LinuxCalls.SEEK_SET) < 0) {
                throw LinuxCalls.failure("lseek " + path() + " to " + newPosition, LinuxCalls.errno(s.callState));
            }
        } finally {
            release();
        }
    }

    @Override
    void checkReadEnd(long position, long count) throws IOException {
        if (position > Long.MAX_VALUE - count) {
            throw LinuxCalls.failure(
                    "pread " + path() + " of " + count + " bytes at " + position + ", past Long.MAX_VALUE",
                    LinuxCalls.EINVAL);
        }
    }

    /** One {@code pread} into {@code into} at {@code position}, retried on {@code EINTR}: the bytes read, 0 at the end. */
    private int pread(Scratch s, MemorySegment into, long position) throws IOException {
        long n;
        do {
            n = LinuxCalls.pread(s.callState, fd, into, into.byteSize(), position);
        } while (n < 0 && LinuxCalls.errno(s.callState) == LinuxCalls.EINTR);
        if (n < 0) {
            throw LinuxCalls.failure("pread " + path(), LinuxCalls.errno(s.callState));
        }
        return (int) n;
    }

    /**
     * One {@code sendfile(2)} of up to {@code count} bytes from {@code *offset} into {@code socketFd},
     * retried on {@code EINTR}, the descriptor held meanwhile: the bytes sent, 0 at the end of the
     * file, or negative with errno in {@code callState}.
     */
    long sendfile(MemorySegment callState, int socketFd, MemorySegment offset, long count) throws IOException {
        hold();
        try {
            long n;
            do {
                n = LinuxCalls.sendfile(callState, socketFd, fd, offset, count);
            } while (n < 0 && LinuxCalls.errno(callState) == LinuxCalls.EINTR);
            return n;
        } finally {
            release();
        }
    }

    /** The size now, by {@code fstat}: a transfer asks it again when the file ends early. */
    @Override
    public long size() throws IOException {
        hold();
        try (Scratch s = Scratch.lend()) {
            if (LinuxCalls.fstat(s.callState, fd, s.stat) < 0) {
                throw LinuxCalls.failure("fstat " + path(), LinuxCalls.errno(s.callState));
            }
            return s.stat.get(ValueLayout.JAVA_LONG, Stat.SIZE);
        } finally {
            release();
        }
    }

    /** Through the JDK channel over the same file, as {@code map} without an arena goes. */
    @Override
    public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
        return jdkChannel().map(mode, offset, size, arena);
    }

    /** Holds the descriptor for a call, returning it; {@link #release()} after the call. */
    int hold() throws ClosedChannelException {
        for (int h = holds.get(); ; h = holds.get()) {
            if (h == 0 || !isOpen()) {
                throw new ClosedChannelException();
            }
            if (holds.compareAndSet(h, h + 1)) {
                return fd;
            }
        }
    }

    void release() {
        release(holds, fd);
    }

    private static void release(AtomicInteger holds, int fd) {
        if (holds.decrementAndGet() == 0) {
            LinuxCalls.close(fd);
        }
    }

    @Override
    void closeDescriptor() {
        if (cleanable == null) {
            release(); // the open hold's; NativeFile closes once
            return;
        }
        onRelease.closed = true;
        cleanable.clean(); // the open hold's release, once
    }

    /** Where {@code struct stat} keeps what the attributes need, on this architecture ({@link LinuxAbi}). */
    static final class Stat {
        private static final LinuxAbi ABI = LinuxAbi.current();
        static final long BYTES = ABI.get("sizeof(struct stat)");
        static final long DEV = ABI.get("offsetof(struct stat, st_dev)");
        static final long INO = ABI.get("offsetof(struct stat, st_ino)");
        static final long MODE = ABI.get("offsetof(struct stat, st_mode)");
        static final long SIZE = ABI.get("offsetof(struct stat, st_size)");
        static final long ATIME = ABI.get("offsetof(struct stat, st_atime)");
        static final long ATIME_NSEC = ABI.get("offsetof(struct stat, st_atime_nsec)");
        static final long MTIME = ABI.get("offsetof(struct stat, st_mtime)");
        static final long MTIME_NSEC = ABI.get("offsetof(struct stat, st_mtime_nsec)");

        private static final int S_IFMT = ABI.getInt("S_IFMT");
        private static final int S_IFREG = ABI.getInt("S_IFREG");
        private static final int S_IFDIR = ABI.getInt("S_IFDIR");
        private static final int S_IFLNK = ABI.getInt("S_IFLNK");
        private static final int S_IFIFO = ABI.getInt("S_IFIFO");
        private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

        private Stat() {}

        /**
         * The attributes in a {@code struct stat}, copied whole into {@code words} and read there:
         * eight checked reads of native memory took about 1.5% of a 4 KiB copy's time, one copy
         * almost none (docs/records/2026-11-30-user-time.md).
         */
        static BasicFileAttributes attributes(MemorySegment stat, long[] words) {
            MemorySegment.copy(stat, ValueLayout.JAVA_LONG, 0, words, 0, words.length);
            return new Attributes(
                    longAt(words, SIZE),
                    longAt(words, MTIME),
                    longAt(words, MTIME_NSEC),
                    longAt(words, ATIME),
                    longAt(words, ATIME_NSEC),
                    intAt(words, MODE) & S_IFMT,
                    longAt(words, DEV),
                    longAt(words, INO));
        }

        /** Words enough for a {@code struct stat}, whose size is a multiple of 8 on every architecture here. */
        static long[] words() {
            return new long[(int) (BYTES / Long.BYTES)];
        }

        /** The field at {@code offset}, a multiple of 8 for every 64-bit field read here. */
        private static long longAt(long[] words, long offset) {
            return words[(int) (offset >>> 3)];
        }

        /** The C {@code int} at {@code offset}, half of a word in the machine's byte order. */
        private static int intAt(long[] words, long offset) {
            int byteInWord = (int) (offset & 7);
            return (int) (words[(int) (offset >>> 3)] >>> (LITTLE_ENDIAN ? 8 * byteInWord : 32 - 8 * byteInWord));
        }

        private static FileTime time(long seconds, long nanos) {
            return FileTime.from(Instant.ofEpochSecond(seconds, nanos));
        }
    }

    /**
     * What {@code fstat} said. The creation time is the last-modified time, the default the
     * {@code BasicFileAttributes} contract allows where none is read.
     */
    private record Attributes(
            long size, long mtime, long mtimeNanos, long atime, long atimeNanos, int type, long dev, long ino)
            implements BasicFileAttributes {
        @Override
        public FileTime lastModifiedTime() {
            return Stat.time(mtime, mtimeNanos);
        }

        @Override
        public FileTime lastAccessTime() {
            return Stat.time(atime, atimeNanos);
        }

        @Override
        public Object fileKey() {
            return new FileKey(dev, ino);
        }

        @Override
        public FileTime creationTime() {
            return lastModifiedTime();
        }

        @Override
        public boolean isRegularFile() {
            return type == Stat.S_IFREG;
        }

        @Override
        public boolean isDirectory() {
            return type == Stat.S_IFDIR;
        }

        @Override
        public boolean isSymbolicLink() {
            return type == Stat.S_IFLNK;
        }

        @Override
        public boolean isOther() {
            return !isRegularFile() && !isDirectory() && !isSymbolicLink();
        }
    }

    /** A file's identity (device and inode), hashing and printing as the key the JDK's attributes give for it. */
    private record FileKey(long dev, long ino) {
        @Override
        public int hashCode() {
            return (int) (dev ^ (dev >>> 32)) + (int) (ino ^ (ino >>> 32));
        }

        @Override
        public String toString() {
            return "(dev=" + Long.toHexString(dev) + ",ino=" + ino + ")";
        }
    }
}
