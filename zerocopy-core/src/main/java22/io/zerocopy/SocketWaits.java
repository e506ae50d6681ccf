package io.zerocopy;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
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

    /** The socket's limit on unsent bytes ({@link SocketRoom#notSentLimit}), read at the first wait; -1 before. */
    private long notSentLimit = -1;

    /**
     * How much one call may write into blocking socket {@code fd} without waiting in the kernel
     * ({@link #takes}), after a wait for room if it takes nothing now; 0 if it still takes nothing.
     *
     * @throws ClosedByInterruptException if an interrupt ended the wait, having closed {@code channel}
     * @throws AsynchronousCloseException if {@code channel}'s output was shut down: the socket then
     *     polls writable, and its room never comes
     */
    long room(LinuxCalls.State state, int fd, Channel channel) throws IOException {
        long room = takes(state, fd);
        if (room == 0) {
            await(state, fd, LinuxCalls.POLLOUT, channel);
            room = takes(state, fd);
        }
        if (room == 0) {
            failIfOutputShut(channel);
        }
        return room;
    }

    /**
     * Throws what the JDK's own write throws once a socket's output is shut down,
     * {@link AsynchronousCloseException}, where {@code channel} is such a socket: asked of its write
     * of no bytes, which never waits and, unlike {@code socket().isOutputShutdown()}, answers for a
     * Unix-domain socket too. A native call into a shut socket fails with {@code EPIPE} instead.
     */
    static void failIfOutputShut(Channel channel) throws IOException {
        if (channel instanceof SocketChannel socket && socket.isOpen()) {
            socket.write(ChannelKinds.NOTHING);
        }
    }

    /**
     * Half the socket's room, since each segment's bookkeeping is charged to the buffer too, and no
     * more than its limit on unsent bytes leaves; 0 with less than a third of the buffer free,
     * where the kernel itself wakes a waiting writer.
     */
    private long takes(LinuxCalls.State state, int fd) throws IOException {
        long free = SocketRoom.free(state, fd);
        if (free * 3 < SocketRoom.buffer(state)) {
            return 0;
        }
        if (notSentLimit < 0) {
            notSentLimit = SocketRoom.notSentLimit(state, fd); // the socket's for this step: set before it starts
        }
        return notSentLimit == SocketRoom.UNLIMITED
                ? free / 2
                : Math.min(free / 2, Math.max(0, notSentLimit - SocketRoom.notSent(state, fd)));
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
     * Whether this kernel tells a socket's send room ({@code SO_MEMINFO} in full, and the limit on
     * unsent bytes), which {@link #room} needs: asked once, of a socket of its own. Where it does
     * not (Linux before 4.12, some emulators), nothing sends into a socket's descriptor: the JDK's
     * calls do.
     */
    static boolean roomKnown() {
        return RoomProbe.UNKNOWN == null;
    }

    /** Why {@link #roomKnown} is false, in words; null where it is true. */
    static String roomUnknown() {
        return RoomProbe.UNKNOWN;
    }

    private static final class RoomProbe {
        static final String UNKNOWN = probe();

        private static String probe() {
            String why;
            try (SocketChannel socket = SocketChannel.open()) {
                LinuxCalls.State state = new LinuxCalls.State();
                int fd = Descriptors.of(socket);
                SocketRoom.free(state, fd);
                SocketRoom.notSentLimit(state, fd);
                SocketRoom.notSent(state, fd);
                if (SocketRoom.systemLimitKnown()) {
                    return null;
                }
                why = "/proc/sys/net/ipv4/tcp_notsent_lowat cannot be read";
            } catch (IOException | RuntimeException | OutOfMemoryError e) { // the calls' memory is direct memory
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
