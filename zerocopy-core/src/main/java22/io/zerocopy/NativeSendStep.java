package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;

/**
 * A file the library opened natively, sent with {@code sendfile(2)} straight into the socket's
 * descriptor: the calls nginx makes, and no second open through the JDK.
 *
 * <p>Every call works on a duplicate of the socket's descriptor ({@link Descriptors#duplicate}),
 * made at the first move and closed with the step (or, for a handle dropped unclosed part-way, by
 * {@link Cleaners}), so a close from another thread never makes a
 * call land on a number the kernel gave out again; the duplicate keeps the socket alive past the
 * owner's close, so no call here blocks in the kernel. Where no descriptor is free for the
 * duplicate ({@code EMFILE}, {@code ENFILE}), the step reads the file and writes through the
 * socket's own write, {@link ParkingBridge#BYTES} at a time, as the JDK path needs no descriptor
 * either. The thread that makes each move
 * decides what a full socket does:
 * <ul>
 *   <li>non-blocking: {@code EAGAIN}; the step returns 0 and the caller waits;</li>
 *   <li>blocking, on a virtual thread: the next bytes go through the socket's own write
 *       ({@link ParkingBridge}), which parks the thread and frees its carrier;</li>
 *   <li>blocking, on a platform thread: through {@link SocketWaits}, never waiting in the kernel; a
 *       step that found no room returns 0, so the engine sees a close and the stall timeout.</li>
 * </ul>
 */
final class NativeSendStep extends SidedStep {
    /** The most one call is asked to send: 1 GiB, as the JDK's own {@code transferTo} asks. */
    private static final long MAX_CALL_BYTES = 1L << 30;

    private final LinuxFile file;
    private final SocketChannel target;
    /** Where this transfer's bytes begin and end in the file. */
    private final long start;

    private final long end;

    private final boolean blockingTarget;

    /** Made at the first move into a blocking socket on a platform thread: only those ask for room. */
    private SocketWaits waits;

    /** Made on a virtual thread's first wait: a platform thread never needs it. */
    private ParkingBridge bridge;
    /** The duplicate of the socket's descriptor every call works on, or -1 before the first move. */
    private int socket = -1;
    /** The duplicate's close, once a move left the transfer unfinished: a handle dropped unclosed still closes it. */
    private Cleaner.Cleanable unclosed;
    /** Whether no descriptor was free for the duplicate: every move then goes through the socket's own write. */
    private boolean undoubled;
    /** Whether a virtual thread had the JDK switch the socket to non-blocking underneath, which lasts. */
    private boolean switched;

    private NativeSendStep(TransferFacts facts, LinuxFile file, SocketChannel target) {
        this.file = file;
        this.target = target;
        this.start = facts.truncatableStart();
        this.end = facts.truncatableEnd();
        this.blockingTarget = !facts.targetNonBlocking();
    }

    /** The step for a transfer {@link NativeStrategy#sendsByKernel} said yes to. */
    static TransferStep open(TransferFacts facts) {
        return new NativeSendStep(facts, (LinuxFile) facts.truncatableFile(), (SocketChannel) facts.target());
    }

    @Override
    public long move(long transferred, long maxBytes) throws IOException {
        long n = sendOrPark(transferred, maxBytes);
        if (socket >= 0 && unclosed == null && start + transferred + Math.max(n, 0) < end) {
            int duplicate = socket;
            unclosed = Cleaners.register(this, () -> closeDuplicate(duplicate));
        }
        return n;
    }

    private long sendOrPark(long transferred, long maxBytes) throws IOException {
        if (!target.isOpen()) {
            throw new AsynchronousCloseException();
        }
        stalledOn = Side.TARGET;
        if (bridge != null && bridge.holdsBytes()) {
            return bridge.writeTo(target, maxBytes);
        }
        boolean parks = blockingTarget && Thread.currentThread().isVirtual();
        if (parks && !switched) {
            ParkingBridge.switchToNonBlocking(target, false);
            switched = true;
        }
        long position = start + transferred;
        long n;
        try (Scratch s = Scratch.lend()) {
            if (socket < 0 && !undoubled) {
                socket = duplicate(s.calls);
                undoubled = socket < 0;
            }
            if (undoubled) {
                n = LinuxCalls.WOULD_BLOCK; // through the socket's own write, below
            } else {
                long count = Math.min(maxBytes, MAX_CALL_BYTES);
                if (blockingTarget && !parks) {
                    count = Math.min(count, room(s.calls));
                }
                if (count == 0) {
                    return 0;
                }
                n = send(s.calls, position, count);
            }
        }
        if (n == LinuxCalls.WOULD_BLOCK && (parks || undoubled)) {
            if (bridge == null) {
                bridge = new ParkingBridge(true);
            }
            file.read(bridge.toFill(maxBytes), position);
            if (bridge.filled()) {
                return bridge.writeTo(target, maxBytes);
            }
            n = 0; // a positional read of a regular file gives nothing only at its end
        }
        if (n == LinuxCalls.WOULD_BLOCK) {
            return 0;
        }
        if (n == 0) {
            stalledOn = Side.SOURCE; // the file ended before the count
            return -1;
        }
        return n;
    }

    /** A duplicate of the socket's descriptor, or -1 where no descriptor is free for one. */
    private int duplicate(LinuxCalls.State state) throws IOException {
        try {
            return Descriptors.duplicate(state, target);
        } catch (AsynchronousCloseException e) {
            throw e;
        } catch (IOException e) {
            if (state.errno() == LinuxCalls.EMFILE || state.errno() == LinuxCalls.ENFILE) {
                return -1;
            }
            throw e;
        }
    }

    /** What the blocking socket takes now, after a wait if need be ({@link SocketWaits#room}); an interrupt during the wait closes the target. */
    private long room(LinuxCalls.State state) throws IOException {
        if (waits == null) {
            waits = new SocketWaits();
        }
        return waits.room(state, socket, target);
    }

    /** One {@code sendfile} from {@code position} into the socket, retried on {@code EINTR}; {@link LinuxCalls#WOULD_BLOCK} on {@code EAGAIN}. */
    private long send(LinuxCalls.State state, long position, long count) throws IOException {
        state.offset.set(ValueLayout.JAVA_LONG, 0, position);
        try {
            return LinuxCalls.moved(
                    state, file.sendfile(state.callState, socket, state.offset, count), "sendfile to the socket");
        } catch (IOException e) {
            SocketWaits.failIfOutputShut(target); // EPIPE: the JDK's words where the output was shut down
            throw e;
        }
    }

    @Override
    public void close() {
        if (socket >= 0) {
            if (unclosed != null) {
                unclosed.clean();
            } else {
                closeDuplicate(socket);
            }
            socket = -1;
        }
    }

    private static void closeDuplicate(int socket) {
        LinuxCalls.close(socket);
    }

    @Override
    public String toString() {
        return NativeStrategy.NAME + "(sendfile" + (bridge != null ? ", " + bridge : "") + ")";
    }
}
