package io.zerocopy.examples.http;

import io.zerocopy.OpenFileCache;
import io.zerocopy.examples.SocketWarmUp;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A running static-file server: {@link #start} binds and serves until {@link #close}.
 *
 * <p>Both engines share the parser, the resolver and the planner; they differ only in how they wait
 * for the network. Neither reads request bodies: a request with one is answered and its connection
 * closed.
 */
interface HttpServer extends AutoCloseable {

    /** Binds and starts serving with the engine {@code config} names. */
    static HttpServer start(ServerConfig config) throws IOException {
        SocketWarmUp.run(); // first, so that what the JDK keeps from it is counted as open at start
        // sized within the descriptor limit before anything else is opened; the engines' admission counts it
        int cached = Admission.cacheWithin(config.openFileCache(), Admission.DescriptorLimit.ofThisProcess());
        OpenFileCache cache = cached == 0 ? null : OpenFileCache.create(cached, config.openFileCacheValid());
        ResponsePlanner planner;
        try {
            planner = new ResponsePlanner(new TargetResolver(config.root(), config.followSymlinks(), cache));
        } catch (IOException | RuntimeException e) {
            if (cache != null) {
                cache.close();
            }
            throw e;
        }
        try {
            return config.engine() == ServerConfig.Engine.THREADS
                    ? ThreadsEngine.start(config, planner)
                    : EventLoopEngine.start(config, planner);
        } catch (IOException | RuntimeException e) {
            planner.close(); // the root held open and the cache: nothing else would close them
            throw e;
        }
    }

    /** A listening channel on the configured address, with a message naming it if that fails. */
    static ServerSocketChannel listen(ServerConfig config) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(config.bind(), config.port()), 1024);
            return server;
        } catch (BindException e) {
            server.close();
            BindException named = new BindException(
                    "cannot listen on " + config.bind().getHostAddress() + ":" + config.port() + ": " + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Closes a connection being dropped; a failure to close it changes nothing. */
    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a socket we are dropping: nothing else to do
        }
    }

    /** The address listened on (the ephemeral port chosen if 0 was asked). */
    InetSocketAddress address();

    /** Connections open now, those being refused included. */
    int openConnections();

    /** How this server admits connections: its effective connection limit and the warning, if any, about it. */
    Admission admission();

    /** The files kept open between requests, or null when the cache is off ({@code --open-file-cache 0}). */
    OpenFileCache openFileCache();

    /**
     * Stops gracefully: stops accepting, closes idle connections, lets responses in progress finish
     * for up to {@code grace}, then closes whatever is left. Returns once every connection is closed
     * and every thread the server started has ended. Idempotent.
     */
    void close(Duration grace);

    /** {@link #close(Duration)} with five seconds' grace. */
    @Override
    default void close() {
        close(Duration.ofSeconds(5));
    }
}
