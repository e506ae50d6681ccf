package io.zerocopy.examples;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code traditional-client} and {@code transferto-client}: sends one file to a server with
 * {@code Transfers.copy}, with a strategy forced as in the original experiment, or {@code auto}
 * for the library's own choice. The stand-in for that experiment's 4 KiB read/write loop is the
 * {@code buffered} strategy with a 4096-byte buffer: a direct buffer filled by
 * {@code FileChannel.read} and emptied by {@code SocketChannel.write}, not a heap array through
 * streams. The other is {@code transferTo}. Unlike the original clients it
 * sends exactly the file, however short the counts of the calls underneath.
 */
@Command(
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Sends a file to a server over TCP with the zerocopy library and prints bytes sent, time and "
                    + "the strategy that ran."
        })
final class ClientCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", description = "Server port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--file", paramLabel = "PATH", required = true, description = "The file to send.")
    Path file;

    @Option(
            names = "--strategy",
            paramLabel = "NAME",
            description = "Strategy to force: buffered, transferTo, mmap, or auto for the library's own choice "
                    + "(default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(
            names = "--buffer-size",
            paramLabel = "BYTES",
            description = "Buffer size of the buffered strategy (default: ${DEFAULT-VALUE}).")
    int bufferSize;

    @Option(names = "--nodelay", description = "Set TCP_NODELAY (turn Nagle's algorithm off).")
    boolean noDelay;

    private final String name;

    ClientCommand(String name, int defaultPort, String defaultStrategy, int defaultBufferSize) {
        this.name = name;
        this.port = defaultPort;
        this.strategy = defaultStrategy;
        this.bufferSize = defaultBufferSize;
    }

    @Override
    public Integer call() throws IOException {
        if (port < 1 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port: " + port + " (expected: 1 to 65535)");
        }
        String unreadable = InputFiles.unreadable(file);
        if (unreadable != null) {
            throw new ParameterException(spec.commandLine(), "--file: " + unreadable);
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new ParameterException(spec.commandLine(), "--host: unknown host " + host);
        }
        LastResult result = new LastResult();
        TransferOptions options = options(strategy, bufferSize, result);
        checkCanSend(options(strategy, bufferSize, TransferListener.NONE));
        long sent;
        long start;
        long end;
        try (SocketChannel socket = SocketChannel.open()) {
            socket.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            try {
                socket.connect(address);
            } catch (ConnectException e) {
                ConnectException named =
                        new ConnectException("cannot connect to " + host + ":" + port + ": " + e.getMessage());
                named.initCause(e);
                throw named;
            }
            start = System.nanoTime();
            try {
                sent = Transfers.copy(file, socket, options);
            } catch (IllegalArgumentException e) {
                // refused after all, though the check let it pass
                throw new ParameterException(spec.commandLine(), Main.refusal(e.getMessage()), e);
            }
            socket.shutdownOutput();
            end = System.nanoTime();
        }
        TransferResult r = result.get();
        String how = r.strategy()
                + ("buffered".equals(r.strategy()) ? " with a " + bufferSize + "-byte buffer" : "")
                + ("auto".equals(strategy) ? " (" + r.reason() + ")" : " (forced)");
        double ms = (end - start) / 1e6;
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "%s: sent %d bytes of %s to %s:%d in %.1f ms (%.1f MB/s) by %s%n",
                name,
                sent,
                file,
                host,
                port,
                ms,
                sent / Math.max(ms, 1e-3) / 1e3,
                how);
        out.flush();
        return 0;
    }

    /**
     * Refuses, before connecting, what the library would refuse once connected: a forced strategy
     * that cannot send a file to a socket ({@code transferFrom}), or a bad {@code zerocopy.*} system
     * property. Asked by opening the transfer to a loopback socket and closing it unsent; if that
     * cannot be made, the copy itself will tell.
     */
    @SuppressWarnings("try") // accepted: open only so that target is connected
    private void checkCanSend(TransferOptions options) {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel target = SocketChannel.open(probe.getLocalAddress());
                    SocketChannel accepted = probe.accept()) {
                Transfers.open(file, target, options).close();
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), Main.refusal(e.getMessage()), e);
        } catch (IOException e) {
            // no probe: the copy will fail with the same reason, if it is one
        }
    }

    private TransferOptions options(String name, int buffer, TransferListener listener) {
        try {
            return TransferOptions.builder()
                    .strategy("auto".equals(name) ? null : name)
                    .bufferSize(buffer)
                    .listener(listener)
                    .build();
        } catch (IllegalArgumentException e) {
            String option =
                    e.getMessage() != null && e.getMessage().startsWith("bufferSize") ? "--buffer-size" : "--strategy";
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
        }
    }
}
