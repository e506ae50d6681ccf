package io.zerocopy.examples;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The receiving end of the classic experiment, without its bug: accepts any number of clients at
 * once, drains each connection on its own thread until end of stream (-1, not 0), and reports one
 * {@link Connection} per connection to a listener. A connection that fails (a client reset mid-way)
 * is reported with its error and does not disturb the others.
 *
 * <p>Usage: {@code start()} binds and returns the port (0 asks for an ephemeral one), {@code close()}
 * stops accepting, cuts the connections still open and waits for their threads.
 */
public final class Server implements AutoCloseable {

    /**
     * What one connection delivered.
     *
     * @param id the connection's number, from 1 in order of acceptance
     * @param remote the client's address
     * @param bytes how many bytes arrived before end of stream or the failure
     * @param crc32c the CRC32C of those bytes, or 0 if the server was made without checksums
     * @param startNanos {@code System.nanoTime()} when the connection was accepted
     * @param endNanos {@code System.nanoTime()} when end of stream or the failure was seen
     * @param failure why the connection ended early, or {@code null} if it reached end of stream
     */
    public record Connection(
            long id,
            SocketAddress remote,
            long bytes,
            long crc32c,
            long startNanos,
            long endNanos,
            IOException failure) {

        /** Whether the client's data ended normally (end of stream) rather than with an error. */
        public boolean complete() {
            return failure == null;
        }

        /** Milliseconds from acceptance to end of stream or failure. */
        public double elapsedMillis() {
            return (endNanos - startNanos) / 1e6;
        }
    }

    private static final int BUFFER_SIZE = 256 * 1024;

    private final InetAddress bind;
    private final int port;
    private final boolean checksum;
    private final Consumer<Connection> listener;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong totalBytes = new AtomicLong();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ExecutorService handlers;
    private volatile ServerSocketChannel channel;
    private Thread acceptor;

    /**
     * A server that is not listening yet.
     *
     * @param bind the local address to listen on
     * @param port the port, or 0 for an ephemeral one
     * @param checksum whether to compute a CRC32C of each connection's bytes
     * @param listener told about each connection when it ends, on that connection's thread
     */
    public Server(InetAddress bind, int port, boolean checksum, Consumer<Connection> listener) {
        this.bind = Objects.requireNonNull(bind, "bind");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0 to 65535)");
        }
        this.port = port;
        this.checksum = checksum;
        this.listener = Objects.requireNonNull(listener, "listener");
        AtomicInteger threads = new AtomicInteger();
        this.handlers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "server-connection-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Binds and starts accepting on a background thread.
     *
     * @return the port listened on (the ephemeral one chosen if 0 was asked)
     * @throws BindException if the address or port is taken, with both named in the message
     */
    public synchronized int start() throws IOException {
        if (channel != null) {
            throw new IllegalStateException("already started");
        }
        SocketWarmUp.run(); // before descriptors can run out: on JDK 17 the first close needs two free
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(bind, port), 128);
        } catch (BindException e) {
            server.close();
            BindException named =
                    new BindException("cannot listen on " + bind.getHostAddress() + ":" + port + ": " + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return start(server);
    }

    /**
     * The second half of {@link #start()}: accepts from {@code server}, already bound, on a background
     * thread. A test's way in with a channel of its own.
     */
    synchronized int start(ServerSocketChannel server) throws IOException {
        channel = server;
        acceptor = new Thread(this::acceptLoop, "server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return address().getPort();
    }

    /** The address listened on; only after {@link #start()}. */
    public InetSocketAddress address() throws IOException {
        ServerSocketChannel server = channel;
        if (server == null) {
            throw new IllegalStateException("not started");
        }
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** Connections ended so far, failed ones included. */
    public long connections() {
        return connections.get();
    }

    /** Connections that ended with an error so far. */
    public long failures() {
        return failures.get();
    }

    /** Bytes received so far over all ended connections. */
    public long totalBytes() {
        return totalBytes.get();
    }

    /** Waits until {@link #close()} has run, for at most the given time; true if it has. */
    public boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    private void acceptLoop() {
        ServerSocketChannel server = channel;
        FailedAccepts failed = new FailedAccepts("server", System.err);
        while (server.isOpen()) {
            SocketChannel peer;
            try {
                peer = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // a failed accept (e.g. too many open files) must not end the server, nor spin: pause, try again
                failed.pauseAfter(e);
                continue;
            }
            open.add(peer);
            try {
                handlers.execute(() -> drain(peer));
            } catch (RuntimeException rejected) {
                // closing: the pool no longer takes work
                open.remove(peer);
                closeQuietly(peer);
            }
        }
    }

    private void drain(SocketChannel peer) {
        long id = ids.incrementAndGet();
        long start = System.nanoTime();
        long bytes = 0;
        IOException failure = null;
        SocketAddress remote = null;
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
        try {
            remote = peer.getRemoteAddress();
            for (int n; (n = peer.read(buffer)) >= 0; ) {
                bytes += n;
                if (checksum) {
                    buffer.flip();
                    crc.update(buffer);
                }
                buffer.clear();
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            open.remove(peer);
            closeQuietly(peer);
        }
        long end = System.nanoTime();
        connections.incrementAndGet();
        totalBytes.addAndGet(bytes);
        if (failure != null) {
            failures.incrementAndGet();
        }
        listener.accept(new Connection(id, remote, bytes, checksum ? crc.getValue() : 0, start, end, failure));
    }

    /**
     * Stops accepting, closes the connections still open (they are reported as failed) and waits
     * up to five seconds for their threads to report. Idempotent.
     */
    @Override
    public void close() throws IOException {
        ServerSocketChannel server;
        synchronized (this) {
            server = channel;
        }
        try {
            if (server != null) {
                server.close();
            }
            handlers.shutdown();
            for (SocketChannel peer : open) {
                closeQuietly(peer);
            }
            try {
                if (acceptor != null) {
                    acceptor.join(TimeUnit.SECONDS.toMillis(5));
                }
                handlers.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            closed.countDown();
        }
    }

    private static void closeQuietly(SocketChannel peer) {
        try {
            peer.close();
        } catch (IOException ignored) {
            // nothing more to do with a connection we are dropping
        }
    }
}
