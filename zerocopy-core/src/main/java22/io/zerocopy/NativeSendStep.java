package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;

/**
 * A file the library opened natively, sent with {@code sendfile(2)} straight into the socket's
 * descriptor (read as splice reads it): the calls nginx makes for a file too large for one
 * {@code pread}, and no second open of it through the JDK.
 *
 * <p>The socket's descriptor is duplicated for the step and closed with it, so a close of the
 * channel from another thread never makes a call land on a number the kernel has handed out again;
 * each step first checks that the channel is still open. A non-blocking socket that is full gives
 * {@code EAGAIN}: the step returns 0. A blocking socket blocks in the kernel as its own write would;
 * an interrupt then shuts it down ({@link Wake}), closes the channel and ends the step with
 * {@code ClosedByInterruptException}, as the JDK does. On a virtual thread, where the JDK runs a
 * blocking socket non-blocking underneath, a full socket is waited for through a
 * {@link ParkingBridge}: the next bytes go through the socket's own write, which parks the thread.
 */
final class NativeSendStep implements TransferStep {
    /** The most one call is asked to send: 1 GiB, as the JDK's own {@code transferTo} asks. */
    private static final long MAX_CALL_BYTES = 1L << 30;

    private static final long WOULD_BLOCK = -2;

    private final LinuxFile file;
    private final SocketChannel target;
    private final long start;
    private final boolean parks;
    /** A blocking socket used from a platform thread: the call blocks in the kernel, and an interrupt must wake it. */
    private final boolean blocks;

    private final LinuxCalls.State state = new LinuxCalls.State();
    private final Wake wake = new Wake();
    private final ParkingBridge bridge = new ParkingBridge(true);
    private final int socket;
    private boolean switched;
    private Side stalledOn = Side.TARGET;

    private NativeSendStep(TransferFacts facts, LinuxFile file, SocketChannel target) throws IOException {
        this.file = file;
        this.target = target;
        this.start = facts.truncatableEnd() - facts.request().count();
        this.parks = facts.blockingTargetOnVirtualThread();
        this.blocks = !facts.targetNonBlocking() && !parks;
        int copy;
        try {
            copy = LinuxCalls.fcntl(state, Descriptors.of(target), LinuxCalls.F_DUPFD_CLOEXEC, 0);
        } catch (RuntimeException e) {
            throw new IOException("sendfile could not read the socket's descriptor: " + e.getMessage(), e);
        }
        if (copy < 0) {
            throw LinuxCalls.failure("fcntl(F_DUPFD_CLOEXEC)", state.errno());
        }
        this.socket = copy;
    }

    /** The step for a transfer {@link NativeFiles#sendsByKernel} said yes to. */
    static NativeSendStep open(TransferFacts facts) throws IOException {
        return new NativeSendStep(facts, (LinuxFile) facts.truncatableFile(), (SocketChannel)
                facts.request().target());
    }

    @Override
    public long move(long transferred, long maxBytes) throws IOException {
        if (!target.isOpen()) {
            throw new AsynchronousCloseException();
        }
        if (!switched) {
            if (parks) {
                ParkingBridge.switchToNonBlocking(target, false);
            }
            switched = true;
        }
        stalledOn = Side.TARGET;
        if (bridge.holdsBytes()) {
            return bridge.writeTo(target, maxBytes);
        }
        long position = start + transferred;
        long n = send(position, Math.min(maxBytes, MAX_CALL_BYTES));
        if (n == WOULD_BLOCK && parks) {
            ByteBuffer b = bridge.toFill(maxBytes);
            file.read(b, position);
            if (!bridge.filled()) {
                n = 0; // a positional read of a regular file gives nothing only at its end
            } else {
                return bridge.writeTo(target, maxBytes);
            }
        }
        if (n == WOULD_BLOCK) {
            return 0;
        }
        if (n == 0) {
            stalledOn = Side.SOURCE; // the file ended before the count
            return -1;
        }
        return n;
    }

    /** One {@code sendfile} from {@code position}; {@link #WOULD_BLOCK} on {@code EAGAIN}. */
    private long send(long position, long count) throws IOException {
        if (!wake.isOpen()) {
            // an interrupt ended an earlier call of this step as it moved bytes, and closed the socket
            throw new ClosedByInterruptException();
        }
        state.offset.set(ValueLayout.JAVA_LONG, 0, position);
        long n;
        try {
            n = blocks
                    ? wake.call(socket, () -> file.sendfile(state.callState, socket, state.offset, count))
                    : file.sendfile(state.callState, socket, state.offset, count);
        } catch (ClosedByInterruptException e) {
            closeTarget(e);
            throw e;
        }
        if (wake.cutShort) {
            // the interrupt came as the call moved bytes: they count; the engine reports the interrupt next
            wake.cutShort = false;
            closeTarget(null);
        }
        if (n >= 0) {
            return n;
        }
        int errno = state.errno();
        if (errno == LinuxCalls.EAGAIN) {
            return WOULD_BLOCK;
        }
        throw LinuxCalls.failure("sendfile to the socket", errno);
    }

    /** The JDK's rule for its own calls: an interrupt closes the channel the call was on. */
    private void closeTarget(ClosedByInterruptException failure) {
        try {
            target.close();
        } catch (IOException closeFailure) {
            if (failure != null) {
                failure.addSuppressed(closeFailure);
            }
        }
    }

    @Override
    public Side stalledOn() {
        return stalledOn;
    }

    @Override
    public void close() {
        LinuxCalls.close(state, socket); // Linux releases the descriptor even when close fails
    }

    @Override
    public String toString() {
        return NativeStrategy.NAME + "(sendfile" + (parks ? ", " + bridge : "") + ")";
    }
}
