package io.zerocopy.examples.http;

import io.zerocopy.TransferOptions;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link HttpServer} runs.
 *
 * @param bind the local address to listen on
 * @param port the port, 0 for an ephemeral one
 * @param root the directory to serve
 * @param engine which engine serves the connections
 * @param maxConnections connections served at once; more are answered 503 and closed
 * @param idleTimeout the longest wait for a complete request head (from the end of the previous
 *     response or the connection's start) and the longest time a response may go without progress
 * @param followSymlinks whether symbolic links under the root are followed
 * @param accessLog where each request is logged
 * @param transferOptions the options the bodies are sent with (strategy, listener)
 * @param openFileCache the most files kept open between requests ({@link io.zerocopy.OpenFileCache}),
 *     fewer if the descriptor limit needs them ({@link Admission#cacheWithin}); 0 opens each afresh
 * @param openFileCacheValid how long a cached file is served without a look at its name; a change
 *     on disk is seen by requests that come this long after it
 */
record ServerConfig(
        InetAddress bind,
        int port,
        Path root,
        Engine engine,
        int maxConnections,
        Duration idleTimeout,
        boolean followSymlinks,
        AccessLog accessLog,
        TransferOptions transferOptions,
        int openFileCache,
        Duration openFileCacheValid) {

    /**
     * Files kept open by default: nginx's own example size ({@code open_file_cache max=1000}), a
     * site's hot files; {@code --open-file-cache} changes it.
     */
    static final int DEFAULT_OPEN_FILE_CACHE = 1000;

    /**
     * How long a cached file is served without a look by default: short, so that a file changed on
     * disk is served new within seconds, and long enough that a hot file costs one look per 2 s
     * rather than an open per request.
     */
    static final Duration DEFAULT_OPEN_FILE_CACHE_VALID = Duration.ofSeconds(2);

    /** A configuration with the default cache of open files. */
    ServerConfig(
            InetAddress bind,
            int port,
            Path root,
            Engine engine,
            int maxConnections,
            Duration idleTimeout,
            boolean followSymlinks,
            AccessLog accessLog,
            TransferOptions transferOptions) {
        this(
                bind,
                port,
                root,
                engine,
                maxConnections,
                idleTimeout,
                followSymlinks,
                accessLog,
                transferOptions,
                DEFAULT_OPEN_FILE_CACHE,
                DEFAULT_OPEN_FILE_CACHE_VALID);
    }

    /** The two ways of serving connections. */
    enum Engine {
        /** A thread per connection (virtual on Java 21+), blocking I/O. */
        THREADS("threads"),
        /** One selector thread per core, non-blocking I/O, bodies driven on write readiness. */
        EVENT_LOOP("event-loop");

        private final String label;

        Engine(String label) {
            this.label = label;
        }

        /** The engine named {@code threads} or {@code event-loop}. */
        static Engine of(String label) {
            for (Engine e : values()) {
                if (e.label.equals(label)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("engine: " + label + " (expected: threads or event-loop)");
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** How long a closing connection at most reads and discards what the client still sends. */
    private static final Duration LINGER = Duration.ofSeconds(2);

    ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(accessLog, "accessLog");
        Objects.requireNonNull(transferOptions, "transferOptions");
        Objects.requireNonNull(openFileCacheValid, "openFileCacheValid");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0 to 65535)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 1)");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: > 0)");
        }
        if (openFileCache < 0) {
            throw new IllegalArgumentException("openFileCache: " + openFileCache + " (expected: >= 0)");
        }
        if (openFileCacheValid.isNegative()) {
            throw new IllegalArgumentException("openFileCacheValid: " + openFileCacheValid + " (expected: >= 0)");
        }
    }

    /**
     * How long, in nanoseconds, a connection that sent its last response reads and discards what the
     * client still sends, so that unread request bytes do not turn the close into a reset that
     * destroys the response: two seconds, or the idle timeout if that is shorter.
     */
    long lingerNanos() {
        return Math.min(idleTimeout.toNanos(), LINGER.toNanos());
    }
}
