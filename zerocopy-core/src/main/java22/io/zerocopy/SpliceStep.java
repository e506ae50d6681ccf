package io.zerocopy;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.TransferRequest;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;

/**
 * One splice transfer: a socket's bytes go into a pipe of this step's own ({@code splice(2)} moves
 * page references, not bytes) and from the pipe to a socket or, at an explicit offset, a file.
 *
 * <p>A step first drains what an earlier step left in the pipe, and reads into an empty pipe only
 * what it was asked for, so the source never gives up a byte beyond the count. Both ends are used
 * through duplicates of their descriptors ({@link Descriptors#duplicate}), closed by
 * {@link #close()}, so a close from another thread never makes a splice land on a reused number;
 * every step first checks both channels are open.
 *
 * <p>The thread that makes each step decides how it waits. A non-blocking end that is not ready
 * gives {@code EAGAIN}: the step returns 0 and says which side it waits for. A blocking socket on a
 * platform thread waits through {@link SocketWaits}, never in the kernel. On a virtual thread the
 * step waits through a {@link ParkingBridge}: the source's own {@code read} (nothing to read) or the
 * target's own {@code write} of the pipe's first bytes (full) parks the thread; then {@code splice}
 * goes on.
 */
final class SpliceStep extends SidedStep {
    private static final int FLAGS = LinuxCalls.SPLICE_F_MOVE | LinuxCalls.SPLICE_F_NONBLOCK;

    /**
     * The pipe size asked for: 1 MiB, the most an unprivileged process may set by default
     * ({@code /proc/sys/fs/pipe-max-size}); it costs less relay CPU per GB than 256 KiB (docs/splice.md).
     */
    static final int PIPE_BYTES = 1 << 20;

    private final SocketChannel source;
    private final WritableByteChannel target;
    private final FileChannel targetFile;
    private final long targetStart;
    private final LinuxCalls.State state = new LinuxCalls.State();
    private final SocketWaits waits = new SocketWaits();
    private final int[] fds = {-1, -1, -1, -1};
    private final int pipeSize;
    private long inPipe;
    private long written;
    /** Whether the source, and the target, are blocking sockets: a step on a virtual thread parks in them (see the type's doc). */
    private final boolean sourceParkable;

    private final boolean targetParkable;
    /** Whether a virtual thread had the JDK switch the blocking sockets to non-blocking underneath, which lasts. */
    private boolean switched;
    /** Bytes taken for a parking read or write and not yet written; direct, as the pipe is read into it natively. */
    private final ParkingBridge bridge = new ParkingBridge(true);

    /** Acquires a pipe and duplicates of both descriptors; the transfer passed the strategy's checks. */
    SpliceStep(TransferFacts facts) throws IOException {
        TransferRequest request = facts.request();
        this.source = (SocketChannel) request.source();
        this.target = request.target();
        this.targetFile = request.targetKind() == ChannelKind.FILE ? request.targetFile() : null;
        this.sourceParkable = !facts.sourceNonBlocking();
        this.targetParkable = !facts.targetNonBlocking() && request.targetKind() == ChannelKind.SOCKET;
        try {
            fds[0] = Descriptors.duplicate(state, source);
            fds[1] = targetFile != null
                    ? Descriptors.duplicate(state, targetFile)
                    : Descriptors.duplicate(state, (SocketChannel) target);
            if (LinuxCalls.pipe2(state, LinuxCalls.O_CLOEXEC) < 0) {
                throw LinuxCalls.failure("pipe2", state.errno());
            }
            fds[2] = state.pipeFds.getAtIndex(ValueLayout.JAVA_INT, 0);
            fds[3] = state.pipeFds.getAtIndex(ValueLayout.JAVA_INT, 1);
            // If the kernel refuses (pipe-max-size, a user's pipe quota), the pipe it gave serves.
            LinuxCalls.fcntl(state, fds[3], LinuxCalls.F_SETPIPE_SZ, PIPE_BYTES);
            int size = LinuxCalls.fcntl(state, fds[3], LinuxCalls.F_GETPIPE_SZ, 0);
            if (size <= 0) {
                throw LinuxCalls.failure("fcntl(F_GETPIPE_SZ)", state.errno());
            }
            this.pipeSize = size;
            this.targetStart = targetFile != null ? targetFile.position() : 0;
            state.offset.set(ValueLayout.JAVA_LONG, 0, targetStart);
        } catch (IOException e) {
            closeDescriptors();
            throw e;
        } catch (RuntimeException e) {
            closeDescriptors();
            throw new IOException("splice could not set up: " + e.getMessage(), e);
        }
    }

    @Override
    public long move(long transferred, long maxBytes) throws IOException {
        if (!source.isOpen() || !target.isOpen()) {
            throw new AsynchronousCloseException();
        }
        // decided by the thread that makes this step: a transfer may move between threads
        boolean virtual = Thread.currentThread().isVirtual();
        boolean sourceParks = sourceParkable && virtual;
        boolean targetParks = targetParkable && virtual;
        if (virtual && !switched) {
            if (sourceParks) {
                ParkingBridge.switchToNonBlocking(source, true);
            }
            if (targetParks) {
                ParkingBridge.switchToNonBlocking((SocketChannel) target, false);
            }
            switched = true;
        }
        if (bridge.holdsBytes()) {
            return writeBridge(maxBytes);
        }
        if (inPipe == 0) {
            if (sourceParkable && !virtual && !waits.readable(state, fds[0], source)) {
                stalledOn = Side.SOURCE;
                return 0;
            }
            long in;
            try {
                in = splice(
                        fds[0],
                        MemorySegment.NULL,
                        fds[3],
                        MemorySegment.NULL,
                        Math.min(maxBytes, pipeSize),
                        "from the source");
            } catch (IOException e) {
                if (state.errno() == LinuxCalls.ECONNRESET) {
                    throw (SocketException)
                            new SocketException("Connection reset").initCause(e); // the JDK read's words
                }
                throw e;
            }
            if (in == LinuxCalls.WOULD_BLOCK && sourceParks) {
                return readThroughSource(maxBytes);
            }
            if (in == LinuxCalls.WOULD_BLOCK) {
                stalledOn = Side.SOURCE;
                return 0;
            }
            if (in == 0) {
                return -1;
            }
            inPipe = in;
        }
        MemorySegment offset = targetFile != null ? state.offset : MemorySegment.NULL;
        stalledOn = Side.TARGET;
        long count = Math.min(inPipe, maxBytes);
        if (targetParkable && !virtual) {
            count = Math.min(count, waits.room(state, fds[1], target));
            if (count == 0) {
                return 0;
            }
        }
        long out;
        try {
            out = splice(fds[2], MemorySegment.NULL, fds[1], offset, count, "to the target");
        } catch (IOException e) {
            SocketWaits.failIfOutputShut(target); // EPIPE: the JDK's words where the output was shut down
            throw e;
        }
        if (out == LinuxCalls.WOULD_BLOCK && targetParks) {
            return writeThroughTarget(maxBytes);
        }
        if (out == LinuxCalls.WOULD_BLOCK) {
            return 0;
        }
        inPipe -= out;
        written += out;
        return out;
    }

    /** The source has nothing and the pipe is empty: reads through the source, which parks the virtual thread. */
    private long readThroughSource(long maxBytes) throws IOException {
        int read = source.read(bridge.toFill(maxBytes));
        return bridge.filled() ? writeBridge(maxBytes) : read < 0 ? -1 : 0;
    }

    /** The target is full: takes the pipe's first bytes and writes them through the target, which parks the virtual thread. */
    private long writeThroughTarget(long maxBytes) throws IOException {
        ByteBuffer b = bridge.toFill(Math.min(inPipe, maxBytes));
        long got = LinuxCalls.read(state, fds[2], MemorySegment.ofBuffer(b), b.remaining());
        b.position((int) Math.max(got, 0)); // a native read leaves the position alone
        bridge.filled();
        if (got < 0) {
            throw LinuxCalls.failure("read from the pipe", state.errno());
        }
        inPipe -= got;
        return writeBridge(maxBytes);
    }

    /** Writes what the bridge holds, at most {@code maxBytes}: through the target's own write, or into the file. */
    private long writeBridge(long maxBytes) throws IOException {
        int n;
        if (targetFile != null) {
            // a file target is written at the offset splice keeps; its writes never wait
            long at = state.offset.get(ValueLayout.JAVA_LONG, 0);
            n = bridge.writeTo(targetFile, at, maxBytes);
            state.offset.set(ValueLayout.JAVA_LONG, 0, at + n);
        } else {
            n = bridge.writeTo(target, maxBytes);
        }
        written += n;
        return n;
    }

    /**
     * One {@code splice(2)}, retried on {@code EINTR}; the bytes moved, {@link LinuxCalls#WOULD_BLOCK} on
     * {@code EAGAIN}. It never waits: both ends were found ready or are non-blocking.
     */
    private long splice(int in, MemorySegment offIn, int out, MemorySegment offOut, long len, String what)
            throws IOException {
        long n;
        do {
            n = LinuxCalls.splice(state, in, offIn, out, offOut, len, FLAGS);
        } while (n < 0 && state.errno() == LinuxCalls.EINTR);
        return LinuxCalls.moved(state, n, "splice " + what);
    }

    @Override
    public void close() throws IOException {
        closeDescriptors();
        if (targetFile != null && targetFile.isOpen()) {
            FileChannels.setPosition(targetFile, targetStart + written);
        }
    }

    private void closeDescriptors() {
        for (int i = 0; i < fds.length; i++) {
            if (fds[i] >= 0) {
                LinuxCalls.close(fds[i]); // Linux releases the descriptor even when close fails
                fds[i] = -1;
            }
        }
    }

    @Override
    public String toString() {
        return SpliceStrategy.NAME + "(pipe " + pipeSize + ")";
    }
}
