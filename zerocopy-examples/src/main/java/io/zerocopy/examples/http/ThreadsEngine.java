package io.zerocopy.examples.http;

import io.zerocopy.OpenFileCache;
import io.zerocopy.examples.FailedAccepts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --engine threads}: one thread per connection, blocking reads and writes, bodies through
 * the library's blocking {@code copy}. The threads are virtual on Java 21 and later (reached by
 * reflection, since this module compiles for Java 17) and platform threads before.
 *
 * <p>A blocking read or write has no timeout of its own, so one reaper thread looks at every
 * connection a few times per idle timeout and closes those past their deadline; the blocked call
 * then fails and its thread ends. That is how a slowloris client or one that stopped reading is cut.
 */
final class ThreadsEngine implements HttpServer {

    private final ServerConfig config;
    private final ResponsePlanner planner;
    private final ServerSocketChannel server;
    private final ExecutorService workers;
    private final String threadKind;
    private final ScheduledExecutorService reaper;
    private final Set<BlockingConnection> open = ConcurrentHashMap.newKeySet();
    private final Admission admission;
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    private final Thread acceptor;
    private volatile boolean closing;
    private volatile boolean closed;

    /** An engine on {@code server} whose reaper runs; it accepts once {@link #start} starts its acceptor. */
    ThreadsEngine(ServerConfig config, ResponsePlanner planner, ServerSocketChannel server) {
        this.config = config;
        this.planner = planner;
        this.server = server;
        ExecutorService virtual = virtualThreads();
        this.workers = virtual != null ? virtual : platformThreads();
        this.threadKind = virtual != null ? "virtual threads" : "platform threads";
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "http-reaper"));
        long period = Math.max(10, Math.min(250, config.idleTimeout().toMillis() / 4));
        reaper.scheduleAtFixedRate(() -> reap(System.nanoTime()), period, period, TimeUnit.MILLISECONDS);
        this.acceptor = daemon(this::acceptLoop, "http-accept");
        // after the listening socket and the reaper are made, so that the reserve counts them
        this.admission = new Admission(
                config.maxConnections(),
                Admission.DescriptorLimit.ofThisProcess(),
                planner.openFileCache() == null ? 0 : planner.openFileCache().maxOpenFiles(),
                () -> LockSupport.unpark(acceptor));
    }

    /**
     * The JDK's count of read sub-pollers for virtual threads' socket I/O. With more than one (JDK
     * 22+ on Linux starts one per carrier), a sub-poller that keeps finding events yields and stays
     * in its carrier's own queue, while one the master poller wakes is queued where carriers look
     * only when their own queues are empty: under 1,000 busy connections the connections it watches
     * waited seconds (docs/virtual-threads.md). One sub-poller has no sibling to starve it.
     */
    static final String READ_POLLERS = "jdk.readPollers";

    /**
     * Asks the JDK for one read sub-poller unless the operator chose a count. The JDK reads the
     * property once, when a virtual thread first blocks on a socket, so it must be set before that:
     * this engine sets it as it starts, and an embedding application that did such I/O earlier keeps
     * the JDK's default.
     */
    static void oneReadPoller() {
        if (System.getProperty(READ_POLLERS) == null) {
            System.setProperty(READ_POLLERS, "1");
        }
    }

    static ThreadsEngine start(ServerConfig config, ResponsePlanner planner) throws IOException {
        oneReadPoller();
        ThreadsEngine engine = new ThreadsEngine(config, planner, HttpServer.listen(config));
        engine.acceptor.start();
        return engine;
    }

    /** Which threads serve: "virtual threads" or "platform threads". */
    String threadKind() {
        return threadKind;
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
        return open.size();
    }

    @Override
    public Admission admission() {
        return admission;
    }

    @Override
    public OpenFileCache openFileCache() {
        return planner.openFileCache();
    }

    private void acceptLoop() {
        while (true) {
            if (admission.full()) {
                // the descriptor limit serves no more: leave new connections in the backlog until a
                // served one closes (which unparks this thread); the timeout only bounds a missed wake-up
                LockSupport.parkNanos(FailedAccepts.PAUSE_NANOS);
                if (closing) {
                    return;
                }
                continue;
            }
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // out of descriptors (EMFILE, ENFILE), or a connection reset before it was accepted:
                // stop accepting for a moment rather than spin on an accept that fails again
                LockSupport.parkNanos(FailedAccepts.PAUSE_NANOS);
                continue;
            }
            Admission.Verdict verdict = admission.admit();
            if (verdict == Admission.Verdict.DROP) {
                HttpServer.closeQuietly(channel);
                continue;
            }
            BlockingConnection connection = new BlockingConnection(this, channel, verdict == Admission.Verdict.REFUSE);
            open.add(connection);
            try {
                workers.execute(connection);
            } catch (RejectedExecutionException shuttingDown) {
                connection.cut();
                ended(connection);
            }
        }
    }

    /** Called once by each connection as its thread ends. */
    void ended(BlockingConnection connection) {
        if (open.remove(connection)) {
            admission.release(connection.refused());
        }
    }

    /** The reaper's round at {@code now} ({@code System.nanoTime()}): see {@link BlockingConnection#reap}. */
    void reap(long now) {
        for (BlockingConnection c : open) {
            c.reap(now);
        }
    }

    @Override
    public void close(Duration grace) {
        if (!closeStarted.compareAndSet(false, true)) {
            awaitClosed(grace.plusSeconds(5));
            return;
        }
        closing = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // the listening socket is going away either way
        }
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
            for (BlockingConnection c : open) {
                if (c.idle()) {
                    c.cut();
                }
            }
            workers.shutdown();
            if (!workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                open.forEach(BlockingConnection::cut);
                workers.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            open.forEach(BlockingConnection::cut);
            Thread.currentThread().interrupt();
        } finally {
            reaper.shutdownNow();
            planner.close();
            synchronized (this) {
                closed = true;
                notifyAll();
            }
        }
    }

    private synchronized void awaitClosed(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (long left; !closed && (left = deadline - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Java 21's {@code Executors.newVirtualThreadPerTaskExecutor()}, or null before 21. */
    private static ExecutorService virtualThreads() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return (ExecutorService)
                    Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static ExecutorService platformThreads() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newCachedThreadPool(r -> daemon(r, "http-connection-" + n.incrementAndGet()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public String toString() {
        return "threads engine (" + threadKind + ") on " + address();
    }
}
