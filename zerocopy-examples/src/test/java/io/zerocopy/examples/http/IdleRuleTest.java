package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The idle rule at its edge, with the deadline check driven directly instead of waited for: a
 * connection whose whole request has arrived is answered, never closed as idle, even when the check
 * runs before the connection's reader has looked at the socket (a loaded machine: the selector
 * thread or the connection's thread not scheduled in time); a partial request is still cut.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleRuleTest {
    private static final Duration IDLE = Duration.ofSeconds(30);
    private static final String REQUEST = "GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final String PARTIAL = "GET /small.txt HTTP/1.1\r\nHo";
    private static final String SMALL = "hello\n";

    @TempDir
    Path dir;

    @BeforeEach
    void root() throws IOException {
        Files.writeString(dir.resolve("small.txt"), SMALL);
    }

    @Test
    void eventLoop_wholeRequestUnreadAtDeadline_answered() throws Exception {
        withLoop((listening, loop) -> {
            try (RawClient client = new RawClient((InetSocketAddress) listening.getLocalAddress())) {
                client.send(REQUEST);
                loop.register(acceptWithUnread(listening, REQUEST.length()), false);
                loop.sweep(pastTheDeadline());
                RawClient.Reply reply = client.read(false);
                assertThat(reply.status()).isEqualTo(200);
                assertThat(reply.text()).isEqualTo(SMALL);
                client.shutdownOutput();
                loop.sweep(pastTheDeadline()); // the connection reads the end of the stream and closes
            }
        });
    }

    @Test
    void eventLoop_partialRequestUnreadAtDeadline_408ThenClosed() throws Exception {
        withLoop((listening, loop) -> {
            try (RawClient client = new RawClient((InetSocketAddress) listening.getLocalAddress())) {
                client.send(PARTIAL);
                loop.register(acceptWithUnread(listening, PARTIAL.length()), false);
                loop.sweep(pastTheDeadline());
                assertThat(new String(client.readToClose(), StandardCharsets.ISO_8859_1))
                        .startsWith("HTTP/1.1 408 ");
            }
        });
    }

    @Test
    void threads_wholeRequestUnreadAtDeadline_answered() throws Exception {
        withThreads((listening, engine) -> {
            try (RawClient client = new RawClient(engine.address())) {
                client.send(REQUEST);
                BlockingConnection connection =
                        new BlockingConnection(engine, acceptWithUnread(listening, REQUEST.length()), false);
                connection.reap(pastTheDeadline()); // before the connection's thread has read anything
                Thread thread = start(connection);
                RawClient.Reply reply = client.read(false);
                assertThat(reply.status()).isEqualTo(200);
                assertThat(reply.text()).isEqualTo(SMALL);
                client.shutdownOutput(); // its thread reads the end of the stream and ends
                thread.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(thread.isAlive()).as("the connection's thread ended").isFalse();
            }
        });
    }

    @Test
    void threads_partialRequestReadAtDeadline_closed() throws Exception {
        withThreads((listening, engine) -> {
            try (RawClient client = new RawClient(engine.address())) {
                client.send(PARTIAL);
                SocketChannel accepted = acceptWithUnread(listening, PARTIAL.length());
                BlockingConnection connection = new BlockingConnection(engine, accepted, false);
                Thread thread = start(connection);
                awaitUnread(accepted, 0); // its thread has read the partial head and waits for more
                connection.reap(pastTheDeadline());
                assertThat(client.readToClose()).as("closed without an answer").isEmpty();
                thread.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(thread.isAlive()).as("the connection's thread ended").isFalse();
            }
        });
    }

    @Test
    void threads_expiredConnection_leftToItsThread() throws Exception {
        withThreads((listening, engine) -> {
            try (RawClient client = new RawClient(engine.address())) {
                SocketChannel accepted = listening.accept();
                BlockingConnection connection = new BlockingConnection(engine, accepted, false);
                connection.reap(pastTheDeadline()); // nothing received: its input is shut
                connection.reap(pastTheDeadline()); // its thread may hold a whole request read just before
                assertThat(accepted.isOpen())
                        .as("left for its thread to answer or close")
                        .isTrue();
                Thread thread = start(connection);
                assertThat(client.readToClose()).as("closed without an answer").isEmpty();
                thread.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(thread.isAlive()).as("the connection's thread ended").isFalse();
            }
        });
    }

    interface WithLoop {
        void run(ServerSocketChannel listening, EventLoop loop) throws Exception;
    }

    interface WithThreads {
        void run(ServerSocketChannel listening, ThreadsEngine engine) throws Exception;
    }

    /** An event loop whose thread never starts: the test is its thread. */
    private void withLoop(WithLoop test) throws Exception {
        ServerConfig config = config(ServerConfig.Engine.EVENT_LOOP);
        ServerSocketChannel listening = HttpServer.listen(config);
        EventLoopEngine engine = new EventLoopEngine(config, planner(config), listening, 0);
        EventLoop loop = new EventLoop(engine, 0);
        try {
            test.run(listening, loop);
        } finally {
            loop.closeSelector();
            engine.close();
        }
    }

    /** A threads engine whose acceptor never starts: the test accepts and starts each connection. */
    private void withThreads(WithThreads test) throws Exception {
        ServerConfig config = config(ServerConfig.Engine.THREADS);
        ServerSocketChannel listening = HttpServer.listen(config);
        ThreadsEngine engine = new ThreadsEngine(config, planner(config), listening);
        try {
            test.run(listening, engine);
        } finally {
            engine.close();
        }
    }

    private ServerConfig config(ServerConfig.Engine engine) {
        return new ServerConfig(
                InetAddress.getLoopbackAddress(),
                0,
                dir,
                engine,
                64,
                IDLE,
                false,
                AccessLog.OFF,
                TransferOptions.defaults());
    }

    private static ResponsePlanner planner(ServerConfig config) throws IOException {
        return new ResponsePlanner(new TargetResolver(config.root(), config.followSymlinks()));
    }

    /** A {@code System.nanoTime()} past the deadline of any connection made so far. */
    private static long pastTheDeadline() {
        return System.nanoTime() + 2 * IDLE.toNanos();
    }

    private static Thread start(Runnable connection) {
        Thread thread = new Thread(connection, "idle-rule-connection");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Accepts the next connection once {@code bytes} of it have arrived; nothing of it is read. */
    private static SocketChannel acceptWithUnread(ServerSocketChannel listening, int bytes) throws IOException {
        SocketChannel accepted = listening.accept();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (unread(accepted) < bytes) {
            assertThat(System.nanoTime()).as("%d bytes arrived", bytes).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval
        }
        return accepted;
    }

    private static void awaitUnread(SocketChannel channel, int bytes) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (unread(channel) != bytes) {
            assertThat(System.nanoTime()).as("%d bytes unread", bytes).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval
        }
    }

    private static int unread(SocketChannel channel) throws IOException {
        return channel.socket().getInputStream().available();
    }
}
