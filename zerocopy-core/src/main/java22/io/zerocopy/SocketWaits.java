package io.zerocopy;

import java.io.IOException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;

/**
 * How a native step uses a blocking socket from a platform thread without waiting in the kernel,
 * where a close could not wake it (the step's duplicate descriptor keeps the socket open past its
 * owner's close): a write asks for no more than the socket takes now ({@link #room}), a read is
 * made only when bytes wait ({@link #readable}), and the waits between are {@code poll} calls of at
 * most {@link #WAIT_MILLIS}, between which the engine sees a close and the stall timeout. An
 * interrupt ends a wait by shutting the socket down ({@link Wake}) and closes its channel, as the
 * JDK does. The calls' memory is the caller's; one per step; not thread-safe.
 */
final class SocketWaits {
    /**
     * Longest wait in {@code poll}: 100 ms, the engine's longest wait in a selector. A stalled
     * transfer costs ten wake-ups a second; a close is seen within about that.
     */
    static final int WAIT_MILLIS = 100;

    private Wake wake;

    /**
     * How much one call may write into blocking socket {@code fd} without waiting in the kernel:
     * half its room, since each segment's bookkeeping is charged to the buffer too. With less than
     * a third of the buffer free (where the kernel itself wakes a waiting writer) it first waits
     * for more; 0 if there is still too little.
     *
     * @throws ClosedByInterruptException if an interrupt ended the wait, having closed {@code channel}
     */
    long room(LinuxCalls.State state, int fd, Channel channel) throws IOException {
        long room = sendRoom(state, fd);
        if (room * 3 < LinuxCalls.sendBuffer(state)) {
            await(state, fd, LinuxCalls.POLLOUT, channel);
            room = sendRoom(state, fd);
        }
        return room * 3 < LinuxCalls.sendBuffer(state) ? 0 : room / 2;
    }

    /**
     * Whether blocking socket {@code fd} has bytes to read (or its end, or an error), after waiting
     * for at most {@link #WAIT_MILLIS}: a read then returns what waits without blocking.
     *
     * @throws ClosedByInterruptException if an interrupt ended the wait, having closed {@code channel}
     */
    boolean readable(LinuxCalls.State state, int fd, Channel channel) throws IOException {
        return await(state, fd, LinuxCalls.POLLIN, channel) > 0;
    }

    /**
     * Whether this kernel tells a socket's send room ({@code SO_MEMINFO} in full), which
     * {@link #room} needs: asked once, of a socket of its own. Where it does not (Linux before
     * 4.12, some emulators), nothing sends into a socket's descriptor: the JDK's calls do.
     */
    static boolean roomKnown() {
        return RoomProbe.UNKNOWN == null;
    }

    /** Why {@link #roomKnown} is false, in words; null where it is true. */
    static String roomUnknown() {
        return RoomProbe.UNKNOWN;
    }

    private static final String SHORT_ANSWER = "getsockopt(SO_MEMINFO) gave fewer counters than asked for";

    private static long sendRoom(LinuxCalls.State state, int fd) throws IOException {
        long room = LinuxCalls.sendRoom(state, fd);
        if (room == LinuxCalls.SHORT_ANSWER) {
            throw new IOException(SHORT_ANSWER);
        }
        if (room < 0) {
            throw LinuxCalls.failure("getsockopt(SO_MEMINFO) of the socket", state.errno());
        }
        return room;
    }

    private static final class RoomProbe {
        static final String UNKNOWN = probe();

        private static String probe() {
            String why;
            try (SocketChannel socket = SocketChannel.open()) {
                LinuxCalls.State state = new LinuxCalls.State();
                long room = LinuxCalls.sendRoom(state, Descriptors.of(socket));
                if (room >= 0) {
                    return null;
                }
                why = room == LinuxCalls.SHORT_ANSWER
                        ? SHORT_ANSWER
                        : "getsockopt(SO_MEMINFO): " + LinuxCalls.message(state.errno());
            } catch (IOException | RuntimeException e) {
                why = e.toString();
            }
            String unknown = "the kernel does not tell a socket's send room (" + why + ")";
            Logs.TRANSFERS.debug("sendfile and splice into a socket go the JDK's way: {}", unknown);
            return unknown;
        }
    }

    /** One bounded {@code poll}; an interrupt closes {@code channel}, the JDK's rule for its own calls. */
    private long await(LinuxCalls.State state, int fd, short events, Channel channel) throws IOException {
        if (wake == null) {
            wake = new Wake();
        }
        long[] ready = {0};
        try {
            if (!wake.isOpen()) {
                throw new ClosedByInterruptException(); // an interrupt ended an earlier wait and shut the socket down
            }
            wake.call(fd, () -> {
                int n;
                do {
                    n = LinuxCalls.poll(state, fd, events, WAIT_MILLIS);
                } while (n < 0 && state.errno() == LinuxCalls.EINTR);
                ready[0] = n;
                return 0; // nothing moved: an interrupt meanwhile is reported, not counted
            });
        } catch (ClosedByInterruptException e) {
            try {
                channel.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
        return ready[0];
    }
}
