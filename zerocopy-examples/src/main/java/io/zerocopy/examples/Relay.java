package io.zerocopy.examples;

import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A TCP relay: every connection accepted on the listening address is connected to the target, and
 * the bytes of each direction are moved by one {@code Transfers.copy(socket, socket)} on a thread of
 * its own, with the options it was given: the library's default between two sockets is
 * {@code buffered}, and {@code splice(2)} runs when forced (Linux, Java 22+, the flags in
 * docs/strategies.md). When one side ends
 * its output, the relay passes that end on; when both directions are done it closes both sockets.
 * Closing the relay stops accepting; connections in progress run to their end.
 */
final class Relay implements AutoCloseable {

    /** What one relayed connection moved; the strategy is that of the client-to-target direction. */
    record Connection(String client, long up, long down, long millis, String strategy, String failure) {}

    private final ServerSocketChannel server;
    private final InetSocketAddress target;
    private final TransferOptions options;
    private final Consumer<Connection> onDone;
    private final Thread acceptor;

    /** The built-in strategies, in the order the help names them. */
    static final List<String> BUILT_IN = List.of("buffered", "splice", "transferTo", "mmap", "transferFrom", "native");

    private Relay(
            ServerSocketChannel server,
            InetSocketAddress target,
            TransferOptions options,
            Consumer<Connection> onDone) {
        this.server = server;
        this.target = target;
        this.options = options;
        this.onDone = onDone;
        this.acceptor = new Thread(this::acceptLoop, "relay-accept");
        acceptor.setDaemon(true);
    }

    /**
     * Starts relaying from {@code listen} to {@code target}.
     *
     * @param strategy a strategy to force, or null for the library's own choice
     * @param onDone called once per connection, from one of its threads, when both directions ended
     * @throws IllegalArgumentException if the library has no strategy of this name
     * @throws BindException if the address or port is taken, with both named in the message
     */
    static Relay start(InetSocketAddress listen, InetSocketAddress target, String strategy, Consumer<Connection> onDone)
            throws IOException {
        TransferOptions options = TransferOptions.builder().strategy(strategy).build();
        SocketWarmUp.run(); // before descriptors can run out: on JDK 17 the first close needs two free
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(listen, 128);
        } catch (BindException e) {
            server.close();
            BindException named = new BindException("cannot listen on "
                    + listen.getAddress().getHostAddress() + ":" + listen.getPort() + ": " + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return start(server, target, options, onDone);
    }

    /**
     * The second half of {@link #start(InetSocketAddress, InetSocketAddress, String, Consumer)}: relays
     * what {@code server}, already bound, accepts. A test's way in with a channel of its own.
     */
    static Relay start(
            ServerSocketChannel server,
            InetSocketAddress target,
            TransferOptions options,
            Consumer<Connection> onDone) {
        Relay relay = new Relay(server, target, options, onDone);
        relay.acceptor.start();
        return relay;
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private void acceptLoop() {
        FailedAccepts failed = new FailedAccepts("relay", System.err);
        while (server.isOpen()) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // a failed accept (e.g. too many open files) must not end the relay, nor spin: pause, try again
                failed.pauseAfter(e);
                continue;
            }
            relay(client);
        }
    }

    /** Connects one client to the target; a failure fails that connection alone, never the accept loop. */
    private void relay(SocketChannel client) {
        String name = String.valueOf(client.socket().getRemoteSocketAddress());
        long started = System.nanoTime();
        SocketChannel upstream;
        try {
            upstream = SocketChannel.open(target);
        } catch (IOException | RuntimeException e) { // RuntimeException: an UnresolvedAddressException
            closeQuietly(client);
            onDone.accept(new Connection(
                    name,
                    0,
                    0,
                    (System.nanoTime() - started) / 1_000_000,
                    "-",
                    "cannot reach " + target + ": " + Main.describe(e)));
            return;
        }
        new Pair(name, client, upstream).start();
    }

    /** The two directions of one connection. */
    private final class Pair {
        private final String name;
        private final SocketChannel client;
        private final SocketChannel upstream;
        private final long started = System.nanoTime();
        private final AtomicInteger running = new AtomicInteger(2);
        private final AtomicReference<String> failure = new AtomicReference<>();
        private final LastResult upResult = new LastResult();
        private volatile long up;
        private volatile long down;

        Pair(String name, SocketChannel client, SocketChannel upstream) {
            this.name = name;
            this.client = client;
            this.upstream = upstream;
        }

        void start() {
            thread("up", () -> up = pump(client, upstream, upResult));
            thread("down", () -> down = pump(upstream, client, new LastResult()));
        }

        private void thread(String direction, Runnable body) {
            Thread t = new Thread(
                    () -> {
                        try {
                            body.run();
                        } finally {
                            if (running.decrementAndGet() == 0) {
                                finish();
                            }
                        }
                    },
                    "relay-" + direction + "-" + name);
            t.setDaemon(true);
            t.start();
        }

        /** Copies one direction to its end and passes the end on; on failure closes both, ending the other. */
        private long pump(SocketChannel from, SocketChannel to, LastResult result) {
            try {
                long n = Transfers.copy(
                        (ReadableByteChannel) from,
                        to,
                        options.toBuilder().listener(result).build());
                to.shutdownOutput();
                return n;
            } catch (IOException | RuntimeException e) { // RuntimeException: a strategy the library refuses
                failure.compareAndSet(null, Main.describe(e));
                closeQuietly(client);
                closeQuietly(upstream);
                return e instanceof TransferException ? ((TransferException) e).bytesTransferred() : 0;
            }
        }

        private void finish() {
            closeQuietly(client);
            closeQuietly(upstream);
            TransferResult result = upResult.get();
            onDone.accept(new Connection(
                    name,
                    up,
                    down,
                    (System.nanoTime() - started) / 1_000_000,
                    result == null ? "-" : result.strategy(),
                    failure.get()));
        }
    }

    /**
     * Why the library, forced to {@code strategy} (null: its own choice), would refuse to copy from a
     * socket to a socket on this JVM, or null if it would not: it refuses with an
     * {@code IllegalArgumentException} before a byte moves. Asked with loopback sockets whose source
     * has already ended, so that a strategy that can serve returns at once.
     *
     * @throws IllegalArgumentException if the library has no strategy of this name
     * @throws IOException if the probe's sockets cannot be made
     */
    @SuppressWarnings("try") // sink: open only so that target is connected
    static String refusal(String strategy) throws IOException {
        TransferOptions options = TransferOptions.builder().strategy(strategy).build();
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel ended = SocketChannel.open(probe.getLocalAddress());
                    SocketChannel source = probe.accept();
                    SocketChannel target = SocketChannel.open(probe.getLocalAddress());
                    SocketChannel sink = probe.accept()) {
                ended.shutdownOutput();
                try {
                    Transfers.copy((ReadableByteChannel) source, target, options);
                    return null;
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            }
        }
    }

    /** The built-in strategies that can copy from a socket to a socket on this JVM, in {@link #BUILT_IN} order. */
    static List<String> thatCanRelay() throws IOException {
        List<String> can = new ArrayList<>();
        for (String name : BUILT_IN) {
            if (refusal(name) == null) {
                can.add(name);
            }
        }
        return can;
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to do for a socket that will not close
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
