package io.zerocopy.examples;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code traditional-server} and {@code transferto-server}: a {@link Server} on the command line.
 * Both receive the same way (the method is the client's business); they differ in their default
 * port, as in the original experiment. One line per connection, a summary line when stopped by
 * Ctrl-C or after {@code --connections} connections.
 */
@Command(
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Receives files from any number of clients at once and prints one line per connection: "
                    + "bytes received, elapsed time and their CRC32C. Ctrl-C stops it with a summary line."
        })
final class ServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            description = "Local address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(
            names = "--port",
            paramLabel = "N",
            description = "Port to listen on, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--connections",
            paramLabel = "N",
            description = "Stop after N connections have ended (default: run until Ctrl-C).")
    long connections;

    /** Completed with the bound address once listening; lets an in-process caller find an ephemeral port. */
    final CompletableFuture<InetSocketAddress> started = new CompletableFuture<>();

    private final String name;

    ServerCommand(String name, int defaultPort) {
        this.name = name;
        this.port = defaultPort;
    }

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port: " + port + " (expected: 0 to 65535)");
        }
        InetAddress address = listenAddress(spec, bind, connections);
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch enough =
                new CountDownLatch(connections > 0 ? (int) Math.min(connections, Integer.MAX_VALUE) : 1);
        Server server = new Server(address, port, true, connection -> {
            synchronized (out) {
                out.println(describe(name, connection));
                out.flush();
            }
            if (connections > 0) {
                enough.countDown();
            }
        });
        int bound;
        try {
            bound = server.start();
        } catch (Exception e) {
            started.completeExceptionally(e);
            throw e;
        }
        // before the line that invites Ctrl-C, so that a Ctrl-C right after it still prints the summary
        AtomicBoolean stopped = new AtomicBoolean();
        Thread hook = new Thread(() -> stop(server, out, stopped), name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        synchronized (out) {
            out.printf(Locale.ROOT, "%s: listening on %s:%d (Ctrl-C to stop)%n", name, address.getHostAddress(), bound);
            out.flush();
        }
        started.complete(server.address());
        try {
            if (connections > 0) {
                enough.await();
            } else {
                server.awaitClosed(Long.MAX_VALUE, TimeUnit.DAYS);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running or about to; it prints the summary
                return 0;
            }
            stop(server, out, stopped);
        }
        return 0;
    }

    private void stop(Server server, PrintWriter out, AtomicBoolean stopped) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        try {
            server.close();
        } catch (Exception e) {
            out.println(name + ": while closing: " + e);
        }
        synchronized (out) {
            out.printf(
                    Locale.ROOT,
                    "%s: stopped after %d connection%s (%d failed), %d bytes received in total%n",
                    name,
                    server.connections(),
                    server.connections() == 1 ? "" : "s",
                    server.failures(),
                    server.totalBytes());
            out.flush();
        }
    }

    /** One connection as a line: its number, peer, bytes, time, throughput, and checksum or failure. */
    static String describe(String serverName, Server.Connection c) {
        double ms = c.elapsedMillis();
        String rate = ms > 0 ? String.format(Locale.ROOT, " (%.1f MB/s)", c.bytes() / ms / 1e3) : "";
        String end = c.complete()
                ? String.format(Locale.ROOT, ", crc32c %08x", c.crc32c())
                : ", cut short: " + Main.describe(c.failure());
        return String.format(
                Locale.ROOT,
                "%s: connection %d from %s: %d bytes in %.1f ms%s%s",
                serverName,
                c.id(),
                c.remote(),
                c.bytes(),
                ms,
                rate,
                end);
    }

    /**
     * The address a server command listens on, {@code --bind} resolved, its {@code --connections}
     * checked too; a usage error naming the option where either is wrong.
     */
    static InetAddress listenAddress(CommandSpec spec, String bind, long connections) {
        if (connections < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--connections: " + connections + " (expected: 0 or more)");
        }
        try {
            return InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--bind: unknown address " + bind, e);
        }
    }
}
