package io.zerocopy.examples.http;

import io.zerocopy.OpenFileCache;
import io.zerocopy.TransferOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

/**
 * {@code http-server}: serves the files under a directory over HTTP/1.1 (GET and HEAD, ranges,
 * conditional requests, keep-alive and pipelining), bodies sent by the zerocopy library, until
 * Ctrl-C or SIGTERM, which stop it gracefully.
 */
@Command(
        name = "http-server",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Serves the files under --root over HTTP/1.1 (GET, HEAD, ranges, conditional requests, "
                    + "keep-alive), the bodies sent by the zerocopy library. Ctrl-C or SIGTERM stop it gracefully."
        })
public final class HttpServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", required = true, description = "The directory to serve.")
    Path root;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            description = "Local address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(
            names = "--port",
            paramLabel = "N",
            description = "Port to listen on, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(
            names = "--engine",
            paramLabel = "E",
            description = "threads (a thread per connection, virtual on Java 21+) or event-loop (a selector "
                    + "thread per core) (default: ${DEFAULT-VALUE}).")
    String engine = "threads";

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            description = "Connections served at once; more are answered 503 and closed (default: ${DEFAULT-VALUE}).")
    int maxConnections = 1024;

    @Option(
            names = "--idle-timeout",
            paramLabel = "S",
            description = "Seconds a client may take to send a request head, and a response may go without "
                    + "progress, before the connection is closed (default: ${DEFAULT-VALUE}).")
    double idleTimeout = 30;

    @Option(
            names = "--follow-symlinks",
            description = "Follow symbolic links under the root, wherever they lead (default: refuse them with 403).")
    boolean followSymlinks;

    @Option(
            names = "--open-file-cache",
            paramLabel = "N",
            description = "Files kept open between requests, as nginx's open_file_cache; fewer if the open file "
                    + "limit needs them for connections; 0 opens every file afresh (default: ${DEFAULT-VALUE}).")
    int openFileCache = ServerConfig.DEFAULT_OPEN_FILE_CACHE;

    @Option(
            names = "--open-file-cache-valid",
            paramLabel = "S",
            description = "Seconds a cached file is served before its name is looked at again: a file changed on "
                    + "disk may be served as it was for this long (default: ${DEFAULT-VALUE}).")
    double openFileCacheValid = ServerConfig.DEFAULT_OPEN_FILE_CACHE_VALID.toMillis() / 1000.0;

    @Option(names = "--access-log", description = "Print one line per request (Common Log Format and milliseconds).")
    boolean accessLog;

    @Option(
            names = "--strategy",
            paramLabel = "NAME",
            description = "The library's strategy for bodies: auto (its own choice), transferTo, buffered, mmap, "
                    + "or native (Java 22+ with native access) (default: ${DEFAULT-VALUE}).")
    String strategy = "auto";

    /** Completed with the bound address once listening; lets an in-process caller find an ephemeral port. */
    final CompletableFuture<InetSocketAddress> started = new CompletableFuture<>();

    private final CountDownLatch stop = new CountDownLatch(1);

    /** Stops a server started by {@link #call()} in this process, as Ctrl-C would. */
    void stop() {
        stop.countDown();
    }

    /**
     * Prints {@code line} from a thread of its own, waiting for it at most {@code timeout}: a stop
     * must not wait for good on an output nobody reads (a full pipe), or the JVM never exits.
     */
    static void printWithin(PrintWriter out, String line, Duration timeout) {
        Thread printer = new Thread(
                () -> {
                    out.println(line);
                    out.flush();
                },
                "http-server-last-line");
        printer.setDaemon(true);
        printer.start();
        try {
            printer.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Integer call() throws Exception {
        ServerConfig config = config();
        PrintWriter out = spec.commandLine().getOut();
        HttpServer server;
        try {
            server = HttpServer.start(config);
        } catch (Exception e) {
            started.completeExceptionally(e);
            throw e;
        }
        // before the line that invites Ctrl-C, so that a Ctrl-C right after it still stops gracefully
        Thread hook = new Thread(
                () -> {
                    stopped(server, config, out);
                    stop.countDown();
                },
                "http-server-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            OpenFileCache cache = server.openFileCache();
            if (openFileCache > 0 && (cache == null || cache.maxOpenFiles() < openFileCache)) {
                PrintWriter err = spec.commandLine().getErr();
                err.printf(
                        Locale.ROOT,
                        "http-server: warning: --open-file-cache %d exceeds what the open file limit allows: keeping at"
                                + " most %d files open; raise the limit (ulimit -n) to keep more%n",
                        openFileCache,
                        cache == null ? 0 : cache.maxOpenFiles());
                err.flush();
            }
            String warning = server.admission().warning();
            if (warning != null) {
                PrintWriter err = spec.commandLine().getErr();
                err.println("http-server: warning: " + warning);
                err.flush();
            }
            InetSocketAddress address = server.address();
            String kind = server instanceof ThreadsEngine
                    ? ", " + ((ThreadsEngine) server).threadKind()
                    : ", " + ((EventLoopEngine) server).loops() + " loops";
            out.printf(
                    Locale.ROOT,
                    "http-server: serving %s on http://%s:%d/ (engine %s%s, strategy %s, at most %d "
                            + "connections, idle timeout %s s, %s; Ctrl-C to stop)%n",
                    config.root().toRealPath(),
                    address.getAddress().getHostAddress(),
                    address.getPort(),
                    config.engine(),
                    kind,
                    strategy,
                    server.admission().maxConnections(),
                    idleTimeout,
                    cacheLine(server.openFileCache()));
            out.flush();
            started.complete(address);
            stop.await();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C or SIGTERM: the hook closes the server
                return 0;
            }
            stopped(server, config, out);
        }
        return 0;
    }

    /**
     * The stop, whichever way it comes: the server closed, then its access log given a second to
     * write what it holds, then the last line, so that the log's lines come before it.
     */
    private static void stopped(HttpServer server, ServerConfig config, PrintWriter out) {
        server.close();
        config.accessLog().drain(Duration.ofSeconds(1));
        printWithin(out, "http-server: stopped", Duration.ofSeconds(1));
    }

    private static String cacheLine(OpenFileCache cache) {
        return cache == null
                ? "no open file cache"
                : "open file cache " + cache.maxOpenFiles() + " files, valid "
                        + cache.validity().toMillis() / 1000.0 + " s";
    }

    /**
     * Refuses a {@code --strategy} that the library has but cannot send a file to a socket with on
     * this JVM ({@code transferFrom}; {@code splice} or {@code native} before Java 22), which would
     * otherwise fail every response with a body; the message names those that can. If the check
     * cannot be made (no temporary file or loopback socket), it says so and lets the server start.
     */
    private void checkSendsToSockets(boolean blocking) {
        List<String> can;
        try {
            if (SocketStrategies.canSend(strategy, blocking)) {
                return;
            }
            can = new ArrayList<>(List.of("auto"));
            can.addAll(SocketStrategies.thatCanSend(blocking));
        } catch (IOException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("http-server: warning: cannot check that --strategy " + strategy
                    + " can send a file to a socket: " + e);
            err.flush();
            return;
        }
        String last = can.remove(can.size() - 1);
        throw new ParameterException(
                spec.commandLine(),
                "--strategy: " + strategy + " cannot send a file to a socket on this JVM (expected: "
                        + String.join(", ", can) + " or " + last + ")");
    }

    private ServerConfig config() {
        if (!Files.isDirectory(root)) {
            throw new ParameterException(spec.commandLine(), "--root: not a directory: " + root);
        }
        try (DirectoryStream<Path> readable = Files.newDirectoryStream(root)) {
            // a root the server may not read is a bad command line, as an unreadable input file is
        } catch (AccessDeniedException e) {
            throw new ParameterException(spec.commandLine(), "--root: access denied: " + root);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--root: " + e.getMessage());
        }
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port: " + port + " (expected: 0 to 65535)");
        }
        if (maxConnections < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--max-connections: " + maxConnections + " (expected: 1 or more)");
        }
        // from a millisecond: less would round to no timeout at all, which the server refuses
        if (!(idleTimeout >= 0.001) || idleTimeout > 86_400) {
            throw new ParameterException(
                    spec.commandLine(), "--idle-timeout: " + idleTimeout + " (expected: 0.001 to 86400 seconds)");
        }
        if (openFileCache < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--open-file-cache: " + openFileCache + " (expected: 0 or more)");
        }
        if (!(openFileCacheValid >= 0) || openFileCacheValid > 86_400) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--open-file-cache-valid: " + openFileCacheValid + " (expected: 0 to 86400 seconds)");
        }
        ServerConfig.Engine kind;
        try {
            kind = ServerConfig.Engine.of(engine);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), "--engine: " + engine + " (expected: threads or event-loop)");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--bind: unknown address " + bind, e);
        }
        TransferOptions options;
        try {
            options = TransferOptions.builder()
                    .strategy(strategy.equals("auto") ? null : strategy)
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--strategy: " + e.getMessage(), e);
        }
        if (!strategy.equals("auto")) {
            checkSendsToSockets(kind == ServerConfig.Engine.THREADS);
        }
        AccessLog log = accessLog ? new AccessLog(spec.commandLine().getOut()) : AccessLog.OFF;
        return new ServerConfig(
                address,
                port,
                root,
                kind,
                maxConnections,
                Duration.ofNanos((long) (idleTimeout * 1e9)),
                followSymlinks,
                log,
                options,
                openFileCache,
                Duration.ofNanos((long) (openFileCacheValid * 1e9)));
    }
}
