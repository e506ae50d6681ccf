package io.zerocopy.examples.http;

import io.zerocopy.examples.FailedAccepts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread of the event-loop engine. It owns its connections: every read, write, timeout
 * check and close of them happens on this thread. Other threads talk to it only through
 * {@link #adopt} and {@link #wakeup}. Deadlines are checked a few times per idle timeout.
 */
final class EventLoop implements Runnable {

    /** Accepts at most this many connections per readiness event, so one burst cannot starve the rest. */
    private static final int ACCEPTS_PER_EVENT = 64;

    private final EventLoopEngine engine;
    private final Selector selector;
    private final Thread thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Set<LoopConnection> connections = new HashSet<>();
    private final ByteBuffer scratch = ByteBuffer.allocate(16 * 1024);
    private final long sweepNanos;
    private ServerSocketChannel server;
    private boolean draining;
    /** Whether accepting is paused: the listening socket's key has no interest. */
    private boolean acceptPaused;
    /** When a pause ends at the latest ({@code System.nanoTime()}). */
    private long acceptResumesAt;

    private volatile boolean forced;

    EventLoop(EventLoopEngine engine, int index) throws IOException {
        this.engine = engine;
        this.selector = Selector.open();
        this.thread = new Thread(this, "http-loop-" + index);
        thread.setDaemon(true);
        long idle = engine.config().idleTimeout().toNanos();
        this.sweepNanos =
                Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.MILLISECONDS.toNanos(250), idle / 4));
    }

    /** Makes this loop accept from {@code server}; before {@link #start()}. */
    void listen(ServerSocketChannel server) throws IOException {
        this.server = server;
        server.register(selector, SelectionKey.OP_ACCEPT);
    }

    void start() {
        thread.start();
    }

    EventLoopEngine engine() {
        return engine;
    }

    /** A buffer this loop's connections may use for bytes they throw away. */
    ByteBuffer scratch() {
        return scratch;
    }

    /** Hands a new connection to this loop, from any thread. */
    void adopt(SocketChannel channel, boolean refused) {
        if (Thread.currentThread() == thread) {
            register(channel, refused);
        } else {
            tasks.add(() -> register(channel, refused));
            selector.wakeup();
        }
    }

    void wakeup() {
        selector.wakeup();
    }

    /** Ends the loop at its next turn, closing every connection it still has. */
    void force() {
        forced = true;
        selector.wakeup();
    }

    boolean join(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    void closeSelector() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing registered yet
        }
    }

    /**
     * After the loop ended: closes connections handed over too late to be registered (the
     * selector is closed, so registering fails and closes them).
     */
    void closeLateArrivals() {
        for (Runnable task; (task = tasks.poll()) != null; ) {
            task.run();
        }
    }

    /** Forgets a connection that closed itself. */
    void remove(LoopConnection connection) {
        connections.remove(connection);
    }

    @Override
    public void run() {
        long nextSweep = System.nanoTime() + sweepNanos;
        try {
            while (!forced) {
                long next = acceptPaused && acceptResumesAt - nextSweep < 0 ? acceptResumesAt : nextSweep;
                long wait = Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - System.nanoTime()));
                selector.select(wait);
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    dispatch(key);
                }
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    task.run();
                }
                long now = System.nanoTime();
                if (acceptPaused && now - acceptResumesAt >= 0) {
                    resumeAccepting();
                }
                if (now - nextSweep >= 0) {
                    sweep(now);
                    nextSweep = now + sweepNanos;
                }
                if (engine.closing()) {
                    drain();
                    if (connections.isEmpty()) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            // the selector failed: nothing this loop can serve any more; close below
        } finally {
            for (LoopConnection c : new ArrayList<>(connections)) {
                c.close();
            }
            for (Runnable task; (task = tasks.poll()) != null; ) {
                task.run(); // connections handed over meanwhile: registered and closed at once below
            }
            for (LoopConnection c : new ArrayList<>(connections)) {
                c.close();
            }
            closeSelector();
        }
    }

    private void dispatch(SelectionKey key) {
        Object attachment = key.attachment();
        if (attachment instanceof LoopConnection) {
            LoopConnection c = (LoopConnection) attachment;
            try {
                c.ready(key.readyOps());
            } catch (CancelledKeyException e) {
                c.close();
            } catch (RuntimeException e) {
                c.failed(e); // a bug must cost one connection, not the loop
            }
        } else if (key.isValid() && key.isAcceptable()) {
            accept();
        }
    }

    private void accept() {
        for (int i = 0; i < ACCEPTS_PER_EVENT; i++) {
            if (engine.admissionFull()) {
                pauseAccepting(); // until a served connection closes: new ones wait in the backlog
                return;
            }
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                // out of descriptors (EMFILE, ENFILE), or reset before accepted: the listening socket
                // stays ready, so accepting again at once would spin; pause for a moment
                pauseAccepting();
                return;
            }
            if (channel == null) {
                return;
            }
            engine.accepted(channel);
        }
    }

    /** Stops watching the listening socket for {@link FailedAccepts#PAUSE_NANOS} or until {@link #resumeAccepting}; on the loop's thread. */
    private void pauseAccepting() {
        SelectionKey key = server.keyFor(selector);
        if (key != null && key.isValid()) {
            key.interestOps(0);
            acceptPaused = true;
            acceptResumesAt = System.nanoTime() + FailedAccepts.PAUSE_NANOS;
        }
    }

    /** Watches the listening socket again after a pause, from any thread: a served connection has closed, or the pause is over. */
    void resumeAccepting() {
        if (Thread.currentThread() != thread) {
            tasks.add(this::watchListeningSocket);
            selector.wakeup();
        } else {
            watchListeningSocket();
        }
    }

    private void watchListeningSocket() {
        SelectionKey key = acceptPaused ? server.keyFor(selector) : null;
        acceptPaused = false;
        if (key != null && key.isValid() && !draining) {
            key.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    /** Takes a connection into this loop; on the loop's thread (or before it starts). */
    void register(SocketChannel channel, boolean refused) {
        LoopConnection c;
        try {
            channel.configureBlocking(false);
            SelectionKey key = channel.register(selector, 0);
            c = new LoopConnection(this, channel, key, refused);
        } catch (IOException | RuntimeException e) {
            HttpServer.closeQuietly(channel);
            engine.ended(refused);
            return;
        }
        connections.add(c);
        if (engine.closing() || forced) {
            c.close();
            return;
        }
        try {
            c.begin();
        } catch (RuntimeException e) {
            c.failed(e);
        }
    }

    /** Times out the connections past their deadline at {@code now}; on the loop's thread (or before it starts). */
    void sweep(long now) {
        for (LoopConnection c : new ArrayList<>(connections)) {
            if (now - c.deadline() > 0) {
                c.timedOut();
            }
        }
    }

    /**
     * At shutdown: stop accepting, closing the listening socket, so that a new client is refused
     * rather than left waiting out the grace; and close the connections that wait for a request
     * with nothing received.
     */
    private void drain() {
        if (!draining && server != null) {
            SelectionKey key = server.keyFor(selector);
            if (key != null) {
                key.cancel();
            }
            try {
                server.close(); // closed at this loop's next select, which deregisters it
            } catch (IOException ignored) {
                // going away either way
            }
        }
        draining = true;
        for (LoopConnection c : new ArrayList<>(connections)) {
            if (c.idle()) {
                c.close();
            }
        }
    }
}
