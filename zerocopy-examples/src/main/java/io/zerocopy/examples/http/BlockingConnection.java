package io.zerocopy.examples.http;

import io.zerocopy.FileRegion;
import io.zerocopy.TransferException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One connection of the threads engine, served on its own thread: read a request head, send the
 * response, repeat while the connection is kept alive. Pipelined requests are read from what is
 * already buffered before the socket is read again.
 *
 * <p>The engine's reaper calls {@link #reap} a few times per idle timeout. While the connection
 * waits for a request, the deadline is the idle timeout after it became ready for one (reads do
 * not extend it, so a slowloris client is cut); once a whole request is in hand, it is the idle
 * timeout after the last write progress; a short linger at the end. A waiting connection past its
 * deadline is not closed by the reaper: its input is shut, so that its own thread, the only one
 * that reads, sees the end of the stream after everything received, and answers a whole request
 * that is there (then closes) rather than dropping it.
 */
final class BlockingConnection implements Runnable {

    /**
     * A blocking {@code copy} reports nothing until it returns, so bodies go out in slices of this
     * size and each slice counts as progress: a client slower than this many bytes per idle timeout
     * is cut.
     */
    static final long SLICE = 1 << 20;

    /** Where the connection stands for the idle rule; only the reaper moves WAITING to EXPIRED. */
    private enum Phase {
        /** Reading a request head, no whole one in hand. */
        WAITING,
        /** A whole request (or a head to reject) in hand, or a 503: answering it, then maybe lingering. */
        ANSWERING,
        /**
         * Past its deadline while waiting, with nothing unread in the socket: input shut by the reaper,
         * which leaves the rest to the connection's thread (it answers a whole request it holds, or
         * reads the end of the stream and closes).
         */
        EXPIRED
    }

    private final ThreadsEngine engine;
    private final SocketChannel channel;
    private final boolean refused;
    private final long idleNanos;
    private final AtomicReference<Phase> phase;
    private volatile long deadline;
    private volatile boolean idle;
    private SocketAddress remote;

    BlockingConnection(ThreadsEngine engine, SocketChannel channel, boolean refused) {
        this.engine = engine;
        this.channel = channel;
        this.refused = refused;
        this.idleNanos = engine.config().idleTimeout().toNanos();
        this.deadline = System.nanoTime() + idleNanos;
        this.phase = new AtomicReference<>(refused ? Phase.ANSWERING : Phase.WAITING);
    }

    boolean refused() {
        return refused;
    }

    /**
     * The reaper's check at {@code now} ({@code System.nanoTime()}). Past the deadline a connection
     * answering or lingering is closed; a waiting one has its input shut, unless the client's bytes
     * are still unread in the socket: its thread judges those first, and the next check looks again.
     * An expired one is left to its thread, which may hold a whole request it read just before.
     */
    void reap(long now) {
        Phase seen = phase.get(); // before the deadline: the thread sets the deadline, then the phase
        if (seen == Phase.EXPIRED || now - deadline <= 0) {
            return;
        }
        if (seen == Phase.ANSWERING) {
            cut();
        } else if (unread() == 0 && phase.compareAndSet(Phase.WAITING, Phase.EXPIRED)) {
            try {
                channel.shutdownInput(); // a read blocked on it, or the next one, sees the end of the stream
            } catch (IOException e) {
                cut();
            }
        }
    }

    /** Bytes received and not read yet; 0 once the socket is closed or its input shut. */
    private int unread() {
        try {
            return channel.socket().getInputStream().available();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Whether it waits for a request with no byte of one received: safe to close at shutdown. */
    boolean idle() {
        return idle;
    }

    /**
     * Shuts the socket's output and closes it: a read or write blocked on it fails, and the thread
     * ends. The shutdown is for a {@code sendfile} blocked on a full socket (a platform thread's
     * {@code transferTo}): the JDK does not count it as the socket's writer, so a close alone neither
     * wakes it nor ends the connection until the peer reads again; a shutdown does.
     */
    void cut() {
        try {
            channel.shutdownOutput();
        } catch (IOException | NotYetConnectedException e) {
            // already closed or never connected: the close below is all there is to do
        }
        HttpServer.closeQuietly(channel);
    }

    @Override
    public void run() {
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            remote = channel.getRemoteAddress();
            if (refused) {
                respond(engine.planner().reject(503, "too many connections"), System.nanoTime(), false);
                linger(ByteBuffer.allocate(4096));
            } else {
                serve();
            }
        } catch (IOException e) {
            // the client went away, or the reaper cut it: nothing left to tell anyone
        } catch (RuntimeException e) {
            // a bug outside a response's sending (which answers 500 for it): logged, and the connection cut
            engine.planner().logFailure(null, e);
        } finally {
            cut();
            engine.ended(this);
        }
    }

    private void serve() throws IOException {
        byte[] bytes = new byte[RequestParser.BUFFER_SIZE];
        ByteBuffer in = ByteBuffer.wrap(bytes);
        while (true) {
            deadline = System.nanoTime() + idleNanos;
            phase.compareAndSet(Phase.ANSWERING, Phase.WAITING); // after the deadline: see reap
            idle = in.position() == 0;
            if (idle && engine.closing()) {
                return;
            }
            RequestParser.Result parsed;
            while ((parsed = RequestParser.parse(bytes, 0, in.position())).incomplete()) {
                if (!in.hasRemaining()) {
                    parsed = RequestParser.Result.reject(431, "request head too large");
                    break;
                }
                if (channel.read(in) < 0) {
                    return; // the client closed, between requests or in the middle of one
                }
                idle = false;
            }
            idle = false;
            long start = System.nanoTime();
            deadline = start + idleNanos;
            boolean expired = !phase.compareAndSet(Phase.WAITING, Phase.ANSWERING);
            if (expired) {
                phase.set(Phase.ANSWERING); // its input is shut: this answer is its last, cut if it stalls
            }
            Response response;
            if (parsed.request() == null) {
                response = engine.planner().reject(parsed.status(), parsed.reason());
            } else {
                response = engine.planner().plan(parsed.request(), engine.closing() || expired);
                int rest = in.position() - parsed.consumed();
                System.arraycopy(bytes, parsed.consumed(), bytes, 0, rest);
                in.position(rest);
            }
            if (respond(response, start, true).close) {
                linger(in.clear());
                return;
            }
        }
    }

    /**
     * Sends a response and logs it; the response's file is closed either way. Returns what went
     * out: the response, or the 500 that replaced it when sending it met an unexpected exception (a
     * bug) before a byte of it went out; after the first byte such an exception is logged and the
     * 500, unsent, still says to close the connection. If the file shrank since it was opened (written
     * in place while the cache of open files held it) before any of the response went out, the
     * request is answered again from a fresh open where {@code mayAnswerAgain}, and only that answer
     * is logged. The event loop answers the same way.
     */
    private Response respond(Response response, long start, boolean mayAnswerAgain) throws IOException {
        long sent = 0;
        Response logged = response;
        try (response) {
            deadline = System.nanoTime() + idleNanos;
            ByteBuffer head = response.head;
            while (sent < response.count || head.hasRemaining()) {
                long slice = Math.min(SLICE, response.count - sent);
                int headLeft = head.remaining();
                try {
                    send(head, response.file, response.position + sent, slice);
                } catch (TransferException e) {
                    sent += Math.max(0, e.bytesTransferred() - headLeft);
                    throw e;
                }
                sent += slice;
                deadline = System.nanoTime() + idleNanos;
            }
            return response;
        } catch (TruncatedSourceException e) {
            if (!mayAnswerAgain || !response.nothingSent(e)) {
                throw e;
            }
            logged = null; // the answer below is logged instead
        } catch (RuntimeException e) {
            Response failure = engine.planner().failed(response.request(), e);
            if (sent == 0 && response.head.position() == 0) {
                logged = failure;
                send(failure.head, null, 0, 0);
            }
            return failure;
        } finally {
            if (logged != null) {
                engine.config().accessLog().log(remote, logged, sent, start);
            }
        }
        Response afresh = engine.planner().planAfresh(response.request(), response.close || engine.closing());
        return respond(afresh, start, false);
    }

    /**
     * Sends the head (if any left) and {@code count} bytes of the file: the first slice with the
     * library's header + body copy, which gathers the head with the start of the file, later ones
     * with its plain slice copy.
     */
    private void send(ByteBuffer head, FileChannel file, long position, long count) throws IOException {
        if (count == 0) {
            while (head.hasRemaining()) {
                channel.write(head);
            }
        } else if (head.hasRemaining()) {
            Transfers.copy(
                    FileRegion.of(file, position, count).withPrefix(new ByteBuffer[] {head}),
                    channel,
                    engine.config().transferOptions());
        } else {
            Transfers.copy(file, position, count, channel, engine.config().transferOptions());
        }
    }

    /**
     * After the last response: half-closes, then reads and discards until the client closes or the
     * linger time passes, so that unread request bytes do not turn the close into a reset that
     * destroys the response before the client has read it.
     */
    private void linger(ByteBuffer scratch) throws IOException {
        deadline = System.nanoTime() + engine.config().lingerNanos();
        channel.shutdownOutput();
        while (channel.read(scratch.clear()) >= 0) {
            // discard
        }
    }

    @Override
    public String toString() {
        return "connection from " + remote + (refused ? " (refused)" : "");
    }
}
