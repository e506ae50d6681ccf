package io.zerocopy.examples.http;

import io.zerocopy.OpenFileCache;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --engine event-loop}: one selector thread per core, every socket non-blocking. The first
 * loop also accepts, and hands connections to the loops in turn. A response body is a transfer
 * driven on write readiness: each {@code OP_WRITE} moves what the socket takes and returns, so a
 * client that stops reading holds nothing but its own connection.
 */
final class EventLoopEngine implements HttpServer {

    private final ServerConfig config;
    private final ResponsePlanner planner;
    private final ServerSocketChannel server;
    private final EventLoop[] loops;
    private final Admission admission;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    private int next;
    private volatile boolean closing;

    /** An engine with {@code loops} selector threads, not started: {@link #start} starts them. */
    EventLoopEngine(ServerConfig config, ResponsePlanner planner, ServerSocketChannel server, int loops)
            throws IOException {
        this.config = config;
        this.planner = planner;
        this.server = server;
        this.loops = new EventLoop[loops];
        try {
            for (int i = 0; i < loops; i++) {
                this.loops[i] = new EventLoop(this, i);
            }
        } catch (IOException e) {
            for (EventLoop loop : this.loops) {
                if (loop != null) {
                    loop.closeSelector();
                }
            }
            throw e;
        }
        // after the listening socket and the selectors are open, so that the reserve counts them
        this.admission = new Admission(
                config.maxConnections(),
                Admission.DescriptorLimit.ofThisProcess(),
                planner.openFileCache() == null ? 0 : planner.openFileCache().maxOpenFiles(),
                () -> this.loops[0].resumeAccepting());
    }

    static EventLoopEngine start(ServerConfig config, ResponsePlanner planner) throws IOException {
        ServerSocketChannel server = HttpServer.listen(config);
        EventLoopEngine engine;
        try {
            server.configureBlocking(false);
            engine = new EventLoopEngine(
                    config, planner, server, Runtime.getRuntime().availableProcessors());
            engine.loops[0].listen(server);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        for (EventLoop loop : engine.loops) {
            loop.start();
        }
        return engine;
    }

    ServerConfig config() {
        return config;
    }

    ResponsePlanner planner() {
        return planner;
    }

    boolean closing() {
        return closing;
    }

    /** Number of selector threads. */
    int loops() {
        return loops.length;
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("closed", e);
        }
    }

    @Override
    public int openConnections() {
        return open.get();
    }

    @Override
    public Admission admission() {
        return admission;
    }

    @Override
    public OpenFileCache openFileCache() {
        return planner.openFileCache();
    }

    /** Whether the accepting loop must leave new connections in the backlog for now: see {@link Admission#full}. */
    boolean admissionFull() {
        return admission.full();
    }

    /** A new connection from the accepting loop: admitted (or refused, or dropped) and given to a loop. */
    void accepted(SocketChannel channel) {
        if (closing) {
            HttpServer.closeQuietly(channel);
            return;
        }
        Admission.Verdict verdict = admission.admit();
        if (verdict == Admission.Verdict.DROP) {
            HttpServer.closeQuietly(channel);
            return;
        }
        open.incrementAndGet();
        EventLoop loop = loops[next];
        next = (next + 1) % loops.length;
        loop.adopt(channel, verdict == Admission.Verdict.REFUSE);
    }

    /** Called once for every connection {@link #accepted} counted, when it closes. */
    void ended(boolean refused) {
        admission.release(refused);
        open.decrementAndGet();
    }

    @Override
    public void close(Duration grace) {
        if (!closeStarted.compareAndSet(false, true)) {
            awaitLoops(grace.plusSeconds(5));
            return;
        }
        closing = true;
        for (EventLoop loop : loops) {
            loop.wakeup();
        }
        if (!awaitLoops(grace)) {
            for (EventLoop loop : loops) {
                loop.force();
            }
            awaitLoops(Duration.ofSeconds(5));
        }
        for (EventLoop loop : loops) {
            loop.closeLateArrivals();
        }
        try {
            server.close(); // the loop that accepted has deregistered it by now
        } catch (IOException ignored) {
            // going away either way
        }
        planner.close();
    }

    private boolean awaitLoops(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (EventLoop loop : loops) {
                long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                if (!loop.join(left)) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "event-loop engine (" + loops.length + " loops) on " + address();
    }
}
