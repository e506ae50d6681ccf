package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;

/**
 * A file the library opened natively, sent with {@code sendfile(2)} straight into the socket's
 * descriptor: the calls nginx makes, and no second open through the JDK.
 *
 * <p>The first {@link #move} uses the socket's own descriptor, as the JDK's calls would, so a
 * one-move transfer (the usual small file) makes no extra call; a transfer that goes on works on a
 * duplicate made before anything waits and closed with the step, so a close from another thread
 * during a wait never makes a call land on a reused number. (Between the first move's look at the
 * channel and its call, a close and a new open elsewhere could still reuse the number: the JDK
 * guards its own calls against that, as no library can.) The duplicate keeps the socket alive
 * past the owner's close, so no call here blocks in the kernel. The thread that makes each move
 * decides what a full socket does:
 * <ul>
 *   <li>non-blocking: {@code EAGAIN}; the step returns 0 and the caller waits;</li>
 *   <li>blocking, on a virtual thread: the next bytes go through the socket's own write
 *       ({@link ParkingBridge}), which parks the thread and frees its carrier;</li>
 *   <li>blocking, on a platform thread: asked for no more than it takes now, with bounded waits in
 *       {@code poll} between ({@link SocketWaits}; an interrupt closes the channel); a step that
 *       found no room returns 0, so the engine sees a close and the stall timeout.</li>
 * </ul>
 */
final class NativeSendStep implements TransferStep {
    /** The most one call is asked to send: 1 GiB, as the JDK's own {@code transferTo} asks. */
    private static final long MAX_CALL_BYTES = 1L << 30;

    private final LinuxFile file;
    private final SocketChannel target;
    private final long start;
    /** Where the bytes this transfer sends end in the file. */
    private final long end;

    private final boolean blockingTarget;

    /** Made on the first wait for room: most steps never wait. */
    private SocketWaits waits;

    /** Made on a virtual thread's first wait: a platform thread never needs it. */
    private ParkingBridge bridge;
    /** The duplicate the moves after the first work on, or -1 before it is made: a step with none is on its first move. */
    private int socket = -1;
    /** Whether a virtual thread had the JDK switch the socket to non-blocking underneath, which lasts. */
    private boolean switched;

    private Side stalledOn = Side.TARGET;

    private NativeSendStep(TransferFacts facts, LinuxFile file, SocketChannel target) {
        this.file = file;
        this.target = target;
        this.end = facts.truncatableEnd();
        this.start = end - facts.request().count();
        this.blockingTarget = !facts.targetNonBlocking();
    }

    /** The step for a transfer {@link NativeStrategy#sendsByKernel} said yes to. */
    static TransferStep open(TransferFacts facts) {
        return new NativeSendStep(facts, (LinuxFile) facts.truncatableFile(), (SocketChannel)
                facts.request().target());
    }

    @Override
    public long move(long transferred, long maxBytes) throws IOException {
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
        try (NativeFiles.Scratch s = NativeFiles.scratch()) {
            boolean first = socket < 0; // any move after the first is on the duplicate
            int fd = first ? socketDescriptor() : socket;
            long count = Math.min(maxBytes, MAX_CALL_BYTES);
            if (blockingTarget && !parks) {
                long room = room(s.calls, fd, !first);
                if (room == 0 && first) {
                    fd = socket = LinuxCalls.duplicate(s.calls, fd); // a wait comes: on the duplicate
                    room = room(s.calls, fd, true);
                }
                count = Math.min(count, room);
            }
            n = count == 0 ? 0 : send(s.calls, fd, position, count);
            if (socket < 0 && (n == LinuxCalls.WOULD_BLOCK || n > 0 && position + n < end)) {
                // the transfer goes on: later moves, and the waits between, on the duplicate
                socket = LinuxCalls.duplicate(s.calls, fd);
            }
            if (count == 0) {
                return 0;
            }
        }
        if (n == LinuxCalls.WOULD_BLOCK && parks) {
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

    /** The socket's own descriptor, read now. */
    private int socketDescriptor() throws IOException {
        try {
            return Descriptors.of(target);
        } catch (RuntimeException e) {
            throw new IOException("sendfile could not read the socket's descriptor: " + e.getMessage(), e);
        }
    }

    /**
     * What blocking socket {@code fd} takes now ({@link SocketWaits#room}), after a wait if
     * {@code mayWait}, else 0 if that would need one; an interrupt during a wait closes the target.
     */
    private long room(LinuxCalls.State state, int fd, boolean mayWait) throws IOException {
        if (waits == null) {
            waits = new SocketWaits();
        }
        return waits.room(state, fd, mayWait, target);
    }

    /** One {@code sendfile} from {@code position} into {@code fd}, retried on {@code EINTR}; {@link LinuxCalls#WOULD_BLOCK} on {@code EAGAIN}. */
    private long send(LinuxCalls.State state, int fd, long position, long count) throws IOException {
        state.offset.set(ValueLayout.JAVA_LONG, 0, position);
        return LinuxCalls.moved(
                state, file.sendfile(state.callState, fd, state.offset, count), "sendfile to the socket");
    }

    @Override
    public Side stalledOn() {
        return stalledOn;
    }

    @Override
    public void close() {
        if (socket >= 0) {
            try (NativeFiles.Scratch s = NativeFiles.scratch()) {
                LinuxCalls.close(s.callState, socket); // Linux releases the descriptor even when close fails
            }
            socket = -1;
        }
    }

    @Override
    public String toString() {
        return NativeStrategy.NAME + "(sendfile" + (bridge != null ? ", " + bridge : "") + ")";
    }
}
