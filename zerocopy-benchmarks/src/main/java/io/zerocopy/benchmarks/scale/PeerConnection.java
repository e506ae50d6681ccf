package io.zerocopy.benchmarks.scale;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * One connection of the {@link PeerServer}, as a state machine its selector loop drives: read the
 * header, then receive (16 KiB per read, one byte of answer at the end) or, once the start signal
 * came, send; then wait for the other side to close. In the slow phase each read or write of at most 16 KiB is followed by a pause.
 */
final class PeerConnection {
    /** Reads or writes per readiness, so one fast connection cannot starve the others. */
    private static final int CALLS_PER_VISIT = 64;

    private enum State {
        HEADER,
        RECEIVING,
        ACKING,
        AWAITING_START,
        SENDING,
        CLOSING
    }

    final SocketChannel channel;
    SelectionKey key;
    long resumeAt;
    private final ByteBuffer header = ByteBuffer.allocate(PeerProtocol.HEADER_BYTES);
    private final ByteBuffer ack = ByteBuffer.allocate(1);
    private State state = State.HEADER;
    private PeerProtocol.Message message;
    private long remaining;
    private long slowLeft;

    PeerConnection(SocketChannel channel) {
        this.channel = channel;
    }

    /** The operations this connection waits for now. */
    int interest() {
        return state == State.ACKING || state == State.SENDING ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
    }

    /**
     * Does what the connection is ready for.
     *
     * @param scratch a 16 KiB buffer to read into
     * @param payload the bytes to send, repeated as often as the size needs
     * @return nanoseconds to pause before the next readiness, 0 for none, -1 once the connection is done
     */
    long onReady(ByteBuffer scratch, ByteBuffer payload) throws IOException {
        switch (state) {
            case HEADER:
                if (channel.read(header) < 0) {
                    return -1;
                }
                if (!header.hasRemaining()) {
                    message = PeerProtocol.Message.decode(header);
                    remaining = message.size();
                    slowLeft = Math.min(message.slowBytes(), remaining);
                    state = message.mode() == PeerProtocol.RECEIVE ? State.RECEIVING : State.AWAITING_START;
                }
                return 0;
            case AWAITING_START:
                // nothing is sent before the start signal, so no byte waits in a socket buffer before the clock starts
                scratch.clear().limit(1);
                int signal = channel.read(scratch);
                if (signal > 0) {
                    state = State.SENDING;
                }
                return signal < 0 ? -1 : 0;
            case RECEIVING:
                return receive(scratch);
            case ACKING:
                return sendAck();
            case SENDING:
                return send(payload);
            default:
                scratch.clear();
                return channel.read(scratch) < 0 ? -1 : 0;
        }
    }

    private long receive(ByteBuffer scratch) throws IOException {
        for (int i = 0; i < CALLS_PER_VISIT && remaining > 0; i++) {
            scratch.clear().limit((int) Math.min(PeerProtocol.CHUNK, remaining));
            int n = channel.read(scratch);
            if (n < 0) {
                throw new EOFException("closed with " + remaining + " of " + message.size() + " bytes to come");
            }
            if (n == 0) {
                return 0;
            }
            if (counted(n)) {
                return pause();
            }
        }
        if (remaining == 0) {
            state = State.ACKING;
            return sendAck();
        }
        return 0;
    }

    /** Counts {@code n} bytes moved; true when the slow start wants a pause before the next. */
    private boolean counted(int n) {
        remaining -= n;
        if (slowLeft <= 0) {
            return false;
        }
        slowLeft -= n;
        return remaining > 0;
    }

    private long sendAck() throws IOException {
        channel.write(ack);
        if (!ack.hasRemaining()) {
            state = State.CLOSING;
        }
        return 0;
    }

    private long send(ByteBuffer payload) throws IOException {
        for (int i = 0; i < CALLS_PER_VISIT && remaining > 0; i++) {
            ByteBuffer slice = payload.duplicate();
            int start = (int) ((message.size() - remaining) % payload.capacity());
            long most = slowLeft > 0 ? PeerProtocol.CHUNK : payload.capacity();
            slice.position(start).limit((int) Math.min(payload.capacity(), start + Math.min(most, remaining)));
            int n = channel.write(slice);
            if (n == 0) {
                return 0;
            }
            if (counted(n)) {
                return pause();
            }
        }
        if (remaining == 0) {
            channel.shutdownOutput();
            state = State.CLOSING;
        }
        return 0;
    }

    /** Ends this visit; with a pause, the loop waits that long before the next one. */
    private long pause() {
        return TimeUnit.MICROSECONDS.toNanos(message.slowPauseMicros());
    }
}
