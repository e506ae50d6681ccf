package io.zerocopy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A file the library opened itself through the kernel's calls ({@link NativeFiles}: Java 22+ on
 * Linux, with native access), not a JDK {@code FileChannel}: read-only, its attributes read by
 * {@code fstat} from the same open, every positional read a {@code pread}. What only the JDK's
 * channel does (mapping, locks, {@code transferTo}) goes to a JDK channel opened on demand over the
 * very same file ({@code /proc/self/fd}) and closed with this one. Safe for concurrent use, as a
 * {@code FileChannel} is; reads of a regular file wait only for the disk, so they are not
 * interruptible.
 */
abstract class NativeFile extends FileChannel {
    private final Path path;
    private long position;
    private FileChannel jdkChannel;

    NativeFile(Path path) {
        this.path = path;
    }

    /** The path this file was opened at. */
    final Path path() {
        return path;
    }

    /** The attributes {@code fstat} read when the file was opened. */
    abstract BasicFileAttributes attributes();

    /** The file's descriptor, while it is open. */
    abstract int descriptor();

    /** Closes the descriptor. */
    abstract void closeDescriptor() throws IOException;

    /**
     * Whether this is a FIFO: read in order through this very descriptor ({@link #readFifo}), never
     * reopened, since its writer may have come and gone since the open, and a reopen would wait for
     * another.
     */
    abstract boolean isFifo();

    /** The next bytes of a FIFO, at most {@code dst.remaining()}, or -1 at its end, as the JDK's {@code read} gives them. */
    abstract int readFifo(ByteBuffer dst) throws IOException;

    /**
     * Throws what the JDK's {@code position(long)} throws for a position the file cannot have: its
     * {@code lseek} fails (EINVAL past the largest file the file system holds: 16 TiB less 4 KiB on
     * ext4).
     */
    abstract void checkPosition(long newPosition) throws IOException;

    /**
     * Throws what one read of {@code count} bytes at {@code position} throws where its end would pass
     * {@code Long.MAX_VALUE} (Linux refuses it whole, EINVAL): for a read the JDK makes in one call
     * and this channel in several (a heap buffer, scattered buffers).
     */
    abstract void checkReadEnd(long position, long count) throws IOException;

    /**
     * A JDK channel over the same file, opened on first use through {@code /proc/self/fd} (so a
     * rename or a new file at the path changes nothing) and closed with this one.
     *
     * @throws FileSystemException naming {@link #path()}, if that reopen fails ({@code /proc} not
     *     mounted, or the file's permissions changed since the open)
     */
    final synchronized FileChannel jdkChannel() throws IOException {
        ensureOpen();
        if (jdkChannel == null || !jdkChannel.isOpen()) { // closed by an interrupt in its transferTo: again
            try {
                jdkChannel = FileChannel.open(Path.of("/proc/self/fd/" + descriptor()), StandardOpenOption.READ);
                FileChannels.rememberSizeAtOpen(jdkChannel, attributes().size()); // the same file, sized once
            } catch (IOException e) {
                throw (IOException) new FileSystemException(
                                path.toString(),
                                null,
                                "needs a JDK channel over the file opened natively, and its reopen through"
                                        + " /proc/self/fd failed (" + e + ")")
                        .initCause(e);
            }
        }
        return jdkChannel;
    }

    /** As {@link #jdkChannel()}, or null where the reopen fails: the caller then reads this file itself. */
    final FileChannel jdkChannelOrNull() {
        try {
            return jdkChannel();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public final int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (isFifo()) {
            return readFifo(dst);
        }
        synchronized (this) {
            int n = read(dst, position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }

    @Override
    public final long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        ensureOpen();
        for (int i = offset; i < offset + length; i++) { // every buffer before any byte, as the JDK
            if (dsts[i].isReadOnly()) {
                throw new IllegalArgumentException("Read-only buffer");
            }
        }
        long wanted = 0;
        for (int i = offset; i < offset + length; i++) {
            wanted += dsts[i].remaining();
        }
        synchronized (this) {
            checkReadEnd(position, wanted);
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                int n = read(dsts[i]);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                total += n;
                if (dsts[i].hasRemaining()) {
                    break;
                }
            }
            return total;
        }
    }

    @Override
    public final long position() throws IOException {
        ensureOpen();
        synchronized (this) {
            return position;
        }
    }

    @Override
    public final FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        Checks.notNegative(newPosition, "newPosition");
        checkPosition(newPosition);
        synchronized (this) {
            position = newPosition;
        }
        return this;
    }

    /** As the JDK's: {@code fsync} flushes what anyone wrote to the file, read-only channel or not. */
    @Override
    public final void force(boolean metaData) throws IOException {
        jdkChannel().force(metaData);
    }

    @Override
    public final long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return jdkChannel().transferTo(position, count, target);
    }

    @Override
    public final MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return jdkChannel().map(mode, position, size);
    }

    @Override
    public final FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        if (!shared) {
            throw new NonWritableChannelException();
        }
        return new HeldLock(this, jdkChannel().lock(position, size, true));
    }

    @Override
    public final FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        if (!shared) {
            throw new NonWritableChannelException();
        }
        FileLock lock = jdkChannel().tryLock(position, size, true);
        return lock == null ? null : new HeldLock(this, lock);
    }

    /**
     * The JDK channel's lock, as this channel's: a lock kept alone keeps this file reachable, whose
     * release when unreachable would close the descriptor and, on Linux, the process's locks with it.
     */
    private static final class HeldLock extends FileLock {
        private final FileLock lock;

        HeldLock(NativeFile file, FileLock lock) {
            super(file, lock.position(), lock.size(), true);
            this.lock = lock;
        }

        @Override
        public boolean isValid() {
            return lock.isValid();
        }

        @Override
        public void release() throws IOException {
            lock.release();
        }
    }

    // Opened for reading only: the JDK's checks in its order, the last of them "not writable".

    @Override
    public final int write(ByteBuffer src) throws IOException {
        ensureOpen();
        throw new NonWritableChannelException();
    }

    @Override
    public final long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        ensureOpen();
        throw new NonWritableChannelException();
    }

    @Override
    public final int write(ByteBuffer src, long position) throws IOException {
        Objects.requireNonNull(src, "src");
        Checks.notNegative(position, "position");
        ensureOpen();
        throw new NonWritableChannelException();
    }

    @Override
    public final FileChannel truncate(long size) throws IOException {
        ensureOpen();
        Checks.notNegative(size, "size");
        throw new NonWritableChannelException();
    }

    @Override
    public final long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        ensureOpen();
        if (!src.isOpen()) {
            throw new ClosedChannelException();
        }
        throw new NonWritableChannelException();
    }

    final void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected final void implCloseChannel() throws IOException {
        FileChannel jdk;
        synchronized (this) {
            jdk = jdkChannel;
        }
        try {
            if (jdk != null) {
                jdk.close();
            }
        } finally {
            closeDescriptor();
        }
    }

    @Override
    public String toString() {
        return path + " (opened natively)";
    }
}
