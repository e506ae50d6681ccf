package io.zerocopy.examples.http;

import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection of the event-loop engine: a small state machine run by its {@link EventLoop}'s
 * thread only. READ collects a request head (pipelined heads already buffered are served before the
 * socket is read again); WRITE drives the response's transfer on write readiness; LINGER has sent its
 * last response and discards what the client still sends until it closes or the linger time passes.
 */
final class LoopConnection {

    private enum State {
        READ,
        WRITE,
        LINGER,
        CLOSED
    }

    private final EventLoop loop;
    private final SocketChannel channel;
    private final SelectionKey key;
    private final boolean refused;
    private final long idleNanos;
    private final byte[] bytes = new byte[RequestParser.BUFFER_SIZE];
    private final ByteBuffer in = ByteBuffer.wrap(bytes);
    private SocketAddress remote;
    private State state = State.READ;
    private long deadline;
    /** The response being sent, from {@link #respond} to {@link #next}; {@link #close} logs one cut short. */
    private Response response;

    private ResponseTransfer transfer;
    private long started;
    /** Whether {@link #response} answers its request again, its file having shrunk before the first answer went. */
    private boolean answeredAgain;

    LoopConnection(EventLoop loop, SocketChannel channel, SelectionKey key, boolean refused) {
        this.loop = loop;
        this.channel = channel;
        this.key = key;
        this.refused = refused;
        this.idleNanos = loop.engine().config().idleTimeout().toNanos();
        this.deadline = System.nanoTime() + idleNanos;
        key.attach(this);
    }

    /** Starts serving: a refused connection gets its 503, any other waits for a request. */
    void begin() {
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            remote = channel.getRemoteAddress();
            if (refused) {
                started = System.nanoTime();
                if (respond(loop.engine().planner().reject(503, "too many connections"))) {
                    next(); // a rejection closes: this lingers
                }
            } else {
                interest(SelectionKey.OP_READ);
            }
        } catch (IOException e) {
            close();
        }
    }

    /** {@code System.nanoTime()} after which {@link #timedOut()} is due. */
    long deadline() {
        return deadline;
    }

    /** Waiting for a request with nothing of one received: safe to close at shutdown. */
    boolean idle() {
        return state == State.READ && in.position() == 0;
    }

    /** The loop saw readiness for this connection. */
    void ready(int readyOps) {
        try {
            if (state == State.WRITE && (readyOps & SelectionKey.OP_WRITE) != 0) {
                if (drive()) {
                    next();
                    serve();
                }
            } else if (state == State.READ && (readyOps & SelectionKey.OP_READ) != 0) {
                int n = channel.read(in);
                if (n < 0) {
                    close(); // the client closed, between requests or in the middle of one
                } else if (n > 0) {
                    serve();
                }
            } else if (state == State.LINGER) {
                discard();
            }
        } catch (IOException e) {
            close();
        }
    }

    /**
     * The deadline passed. While reading, what the socket holds is read first: a whole request that
     * arrived after the loop last looked is answered as if it had been seen in time. Otherwise a
     * partial request gets a 408 if the socket takes it; then close.
     */
    void timedOut() {
        if (state == State.READ) {
            try {
                int n = channel.read(in);
                if (n < 0) {
                    close();
                    return;
                }
                if (!in.hasRemaining()
                        || !RequestParser.parse(bytes, 0, in.position()).incomplete()) {
                    serve();
                    return;
                }
            } catch (IOException e) {
                close();
                return;
            }
        }
        if (state == State.READ && in.position() > 0) {
            try (Response timeout = loop.engine().planner().reject(408, "request head not received in time")) {
                channel.write(timeout.head);
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        close();
    }

    /**
     * Serves every complete request head buffered, until one needs to wait for the socket; nothing
     * to do unless the connection is reading.
     */
    private void serve() throws IOException {
        while (state == State.READ) {
            RequestParser.Result parsed = RequestParser.parse(bytes, 0, in.position());
            if (parsed.incomplete() && in.hasRemaining()) {
                interest(SelectionKey.OP_READ);
                return;
            }
            Response next;
            ResponsePlanner planner = loop.engine().planner();
            started = System.nanoTime(); // the access log times a response from its complete request head
            if (parsed.request() != null) {
                next = planner.plan(parsed.request(), loop.engine().closing());
                int rest = in.position() - parsed.consumed();
                System.arraycopy(bytes, parsed.consumed(), bytes, 0, rest);
                in.position(rest);
            } else {
                next = parsed.incomplete()
                        ? planner.reject(431, "request head too large")
                        : planner.reject(parsed.status(), parsed.reason());
            }
            if (!respond(next)) {
                return;
            }
            next();
        }
    }

    /**
     * Starts sending a response; true if it went out at once. If the library meets an unexpected
     * exception (a bug) opening its transfer, before a byte moves, the 500 that closes the
     * connection goes instead, as on the threads engine.
     */
    private boolean respond(Response next) throws IOException {
        response = next;
        try {
            transfer = ResponseTransfer.open(loop.engine().config().transferOptions(), next, channel);
        } catch (TruncatedSourceException e) {
            return answerAgain(e);
        } catch (RuntimeException e) {
            next.close();
            response = loop.engine().planner().failed(next.request(), e);
            transfer = ResponseTransfer.open(loop.engine().config().transferOptions(), response, channel);
        }
        state = State.WRITE;
        deadline = System.nanoTime() + idleNanos;
        return drive();
    }

    /** Moves what the socket takes now; true once the response is complete (and logged, and released). */
    private boolean drive() throws IOException {
        long moved;
        try {
            moved = transfer.advance();
        } catch (TruncatedSourceException e) {
            return answerAgain(e);
        }
        if (moved > 0) {
            deadline = System.nanoTime() + idleNanos;
        }
        if (!transfer.isDone()) {
            interest(transfer.interestOps());
            return false;
        }
        finish();
        return true;
    }

    /**
     * The response's file shrank since it was opened (written in place while the cache of open files
     * held it): if nothing of the response went out, the request is answered again, once, from a
     * fresh open, as on the threads engine; otherwise the failure stands. Returns as {@link #respond}.
     */
    private boolean answerAgain(TruncatedSourceException failure) throws IOException {
        Response failed = response;
        if (answeredAgain || !failed.nothingSent(failure)) {
            throw failure;
        }
        answeredAgain = true;
        if (transfer != null) {
            transfer.close();
            transfer = null;
        }
        failed.close();
        return respond(loop.engine()
                .planner()
                .planAfresh(failed.request(), failed.close || loop.engine().closing()));
    }

    /** After a complete response: ready for the next request, or lingering at the end of the connection. */
    private void next() throws IOException {
        boolean last = response.close || loop.engine().closing();
        response = null;
        if (last) {
            linger();
        } else {
            state = State.READ;
            deadline = System.nanoTime() + idleNanos;
        }
    }

    private void finish() {
        answeredAgain = false;
        loop.engine().config().accessLog().log(remote, response, transfer.bodyTransferred(), started);
        transfer.close();
        transfer = null;
        response.close();
    }

    private void linger() throws IOException {
        state = State.LINGER;
        deadline = System.nanoTime() + loop.engine().config().lingerNanos();
        channel.shutdownOutput();
        interest(SelectionKey.OP_READ);
    }

    private void discard() throws IOException {
        ByteBuffer scratch = loop.scratch();
        int n;
        while ((n = channel.read(scratch.clear())) > 0) {
            // thrown away: the connection is ending
        }
        if (n < 0) {
            close();
        }
    }

    private void interest(int ops) {
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /**
     * A bug met outside the start of a response (where a 500 answers it): logs the exception, and
     * closes the connection, so that it costs this connection and not the loop.
     */
    void failed(RuntimeException e) {
        loop.engine().planner().logFailure(response == null ? null : response.request(), e);
        close();
    }

    /**
     * Closes the socket and releases the response in progress, logged as cut short: with the body
     * bytes that went out, 0 if its transfer failed to open (as the threads engine logs it). Idempotent.
     */
    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        key.cancel();
        HttpServer.closeQuietly(channel);
        if (response != null) {
            long sent = transfer == null ? 0 : transfer.bodyTransferred();
            loop.engine().config().accessLog().log(remote, response, sent, started);
        }
        if (transfer != null) {
            transfer.close();
            transfer = null;
        }
        if (response != null) {
            response.close();
            response = null;
        }
        loop.remove(this);
        loop.engine().ended(refused);
    }

    @Override
    public String toString() {
        return "connection from " + remote + " (" + state + (refused ? ", refused" : "") + ")";
    }
}
