package io.zerocopy.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code relay}: a {@link Relay} on the command line, one line per connection. */
@Command(
        name = "relay",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Relays TCP connections to another address, both directions with Transfers.copy(socket, socket): "
                    + "a buffer, or splice(2) with --strategy splice (Linux, Java 22+, the jar's Add-Exports and "
                    + "Enable-Native-Access manifest entries). One line per connection: bytes each way, time, strategy."
        })
final class RelayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--listen",
            required = true,
            paramLabel = "PORT",
            description = "Port to accept connections on, 0 for any free one.")
    int listen;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            description = "Local address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--to", required = true, paramLabel = "HOST:PORT", description = "Where to relay each connection.")
    String to;

    @Option(
            names = "--strategy",
            paramLabel = "NAME",
            description = "Force a strategy (buffered, splice), or auto (default).")
    String strategy = "auto";

    @Option(
            names = "--connections",
            paramLabel = "N",
            description = "Stop after N connections have ended (default: run until Ctrl-C).")
    long connections;

    /** Completed with the bound address once listening; lets an in-process caller find an ephemeral port. */
    final CompletableFuture<InetSocketAddress> started = new CompletableFuture<>();

    @Override
    public Integer call() throws Exception {
        if (listen < 0 || listen > 65535) {
            throw new ParameterException(spec.commandLine(), "--listen: " + listen + " (expected: 0 to 65535)");
        }
        InetAddress address = ServerCommand.listenAddress(spec, bind, connections);
        int colon = to.lastIndexOf(':');
        int port = colon < 0 ? -1 : parsePort(to.substring(colon + 1));
        if (colon <= 0 || port < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--to: " + to + " (expected: HOST:PORT with a port from 1 to 65535)");
        }
        InetSocketAddress target = new InetSocketAddress(to.substring(0, colon), port);
        if (target.isUnresolved()) {
            // refused now, as the clients refuse an unknown --host, rather than failing every connection
            throw new ParameterException(spec.commandLine(), "--to: unknown host " + to.substring(0, colon));
        }
        String forced = strategy.equals("auto") ? null : strategy;
        checkCanRelay(forced);
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch ended = new CountDownLatch(connections > 0 ? (int) Math.min(connections, Integer.MAX_VALUE) : 1);
        try (Relay relay = Relay.start(new InetSocketAddress(address, listen), target, forced, c -> {
            synchronized (out) {
                out.printf(
                        Locale.ROOT,
                        "%s: %d bytes up, %d bytes down, %d ms, %s%s%n",
                        c.client(),
                        c.up(),
                        c.down(),
                        c.millis(),
                        c.strategy(),
                        c.failure() == null ? "" : ", failed: " + c.failure());
                out.flush();
            }
            ended.countDown();
        })) {
            out.println("relaying " + relay.address() + " -> " + target);
            out.flush();
            started.complete(relay.address());
            ended.await(); // with no --connections, until Ctrl-C ends the JVM
        } catch (Exception e) {
            started.completeExceptionally(e);
            throw e;
        }
        return 0;
    }

    /**
     * Refuses a strategy, or system properties, with which the library cannot copy from a socket to a
     * socket on this JVM ({@code mmap}, {@code transferFrom}; {@code splice} before Java 22), which
     * would otherwise fail every connection. If the check cannot be made, it says so and goes on.
     */
    private void checkCanRelay(String forced) {
        String refusal;
        List<String> can;
        try {
            refusal = Relay.refusal(forced);
            if (refusal == null) {
                return;
            }
            can = new ArrayList<>(List.of("auto"));
            can.addAll(Relay.thatCanRelay());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--strategy: " + e.getMessage(), e);
        } catch (IOException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("relay: warning: cannot check that the library can copy from a socket to a socket: " + e);
            err.flush();
            return;
        }
        String worded = Main.refusal(refusal);
        if (forced == null || !worded.startsWith("--strategy: ")) {
            throw new ParameterException(spec.commandLine(), worded);
        }
        String last = can.remove(can.size() - 1);
        throw new ParameterException(
                spec.commandLine(),
                "--strategy: " + strategy + " cannot copy from a socket to a socket on this JVM (expected: "
                        + (can.isEmpty() ? "" : String.join(", ", can) + " or ") + last + ")");
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text);
            return port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
