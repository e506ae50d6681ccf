package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import io.zerocopy.examples.SocketWarmUp;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server of one engine on 127.0.0.1 with an ephemeral port, over a generated directory, started
 * before each test and stopped after it; every test must leave the JVM's descriptor count where it
 * found it. Subclasses name the engine.
 *
 * <p>The root holds {@code big.bin} (3 MiB and a bit, random), {@code stall.bin} (8 MiB),
 * {@code small.txt}, {@code index.html}, {@code docs/index.html}, {@code empty/} (no index),
 * {@code é.txt}, {@code empty.bin} (0 bytes), and symbolic links {@code link-out} (to a directory
 * outside the root) and {@code link-in} (to {@code small.txt}). Outside the root:
 * {@code outside/secret.txt}.
 */
abstract class ServerFixture {
    static final int BIG_SIZE = (3 << 20) + 12_345;
    static final int STALL_SIZE = 8 << 20;
    static final String SECRET = "secret: must never be served\n";
    static final String SMALL = "hello, zero-copy world\n";

    @TempDir
    static Path dir;

    static Path root;
    static byte[] big;
    static HttpClient client;

    HttpServer server;
    private StringWriter log;
    private int baseline;
    private List<String> baselineTargets;
    private final List<AutoCloseable> resources = new ArrayList<>();

    /** The engine under test. */
    abstract ServerConfig.Engine engine();

    @BeforeAll
    static void files() throws Exception {
        root = layout(dir);
        big = bytes(BIG_SIZE, 42);
        Files.write(root.resolve("big.bin"), big);
        // an hour old, so that its Last-Modified date is a strong validator for If-Range
        Files.setLastModifiedTime(root.resolve("big.bin"), FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        Files.write(root.resolve("stall.bin"), bytes(STALL_SIZE, 43));
        SocketWarmUp.run(); // what the JDK keeps from its first socket, in every baseline
        warmUpVirtualThreadIo();
        if (client == null) {
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
        }
    }

    /**
     * Serves a few requests at once with the threads engine, so that what the JDK opens for good on
     * the first blocking I/O of virtual threads (JDK 25: an epoll instance per poller) is open
     * before any test takes its descriptor baseline.
     */
    private static void warmUpVirtualThreadIo() throws Exception {
        try (HttpServer warm = HttpServer.start(new ServerConfig(
                InetAddress.getLoopbackAddress(),
                0,
                root,
                ServerConfig.Engine.THREADS,
                64,
                Duration.ofSeconds(30),
                false,
                AccessLog.OFF,
                TransferOptions.defaults()))) {
            List<CompletableFuture<String>> replies = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                replies.add(CompletableFuture.supplyAsync(() -> {
                    try (RawClient c = new RawClient(warm.address())) {
                        return c.get("/big.bin").statusLine();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
            for (CompletableFuture<String> reply : replies) {
                assertThat(reply.get(30, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200");
            }
        }
    }

    /** Creates {@code dir/root} with the small files, directories and links, and {@code dir/outside}; returns the root. */
    /** A server's configuration on an ephemeral loopback port for one test: 16 connections, 30 s idle, no links followed. */
    static ServerConfig config(Path root, ServerConfig.Engine engine, AccessLog log, TransferOptions options) {
        return new ServerConfig(
                InetAddress.getLoopbackAddress(), 0, root, engine, 16, Duration.ofSeconds(30), false, log, options);
    }

    static Path layout(Path dir) throws IOException {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET);
        Files.writeString(root.resolve("small.txt"), SMALL);
        Files.writeString(root.resolve("index.html"), "<h1>root</h1>\n");
        Files.writeString(Files.createDirectories(root.resolve("docs")).resolve("index.html"), "<h1>docs</h1>\n");
        Files.createDirectories(root.resolve("empty"));
        Files.writeString(root.resolve("\u00e9.txt"), "accented\n");
        Files.write(root.resolve("empty.bin"), new byte[0]);
        Files.createSymbolicLink(root.resolve("link-out"), outside);
        Files.createSymbolicLink(root.resolve("link-in"), root.resolve("small.txt"));
        return root;
    }

    @BeforeEach
    void startServer() throws IOException {
        baseline = Descriptors.countable() ? Descriptors.open() : 0;
        baselineTargets = Descriptors.countable() ? Descriptors.targets() : List.of();
        start(Duration.ofSeconds(30), 1024, false);
    }

    /** Replaces the running server with one of these settings. */
    HttpServer start(Duration idleTimeout, int maxConnections, boolean followSymlinks) throws IOException {
        return start(
                idleTimeout,
                maxConnections,
                followSymlinks,
                ServerConfig.DEFAULT_OPEN_FILE_CACHE,
                ServerConfig.DEFAULT_OPEN_FILE_CACHE_VALID);
    }

    /** Replaces the running server with one of these settings, its cache of open files included. */
    HttpServer start(
            Duration idleTimeout, int maxConnections, boolean followSymlinks, int openFileCache, Duration valid)
            throws IOException {
        if (server != null) {
            server.close();
        }
        log = new StringWriter();
        server = HttpServer.start(new ServerConfig(
                InetAddress.getLoopbackAddress(),
                0,
                root,
                engine(),
                maxConnections,
                idleTimeout,
                followSymlinks,
                new AccessLog(new PrintWriter(log)),
                TransferOptions.defaults(),
                openFileCache,
                valid));
        return server;
    }

    @AfterEach
    void stopServer() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
        server.close();
        if (Descriptors.countable()) {
            int now = Descriptors.awaitAtMost(baseline);
            List<String> after = Descriptors.targets();
            baselineTargets.forEach(after::remove); // one occurrence each: several descriptors share a name
            assertThat(now)
                    .as("open descriptors after the test; new since its start: %s", after)
                    .isLessThanOrEqualTo(baseline);
        }
    }

    URI uri(String target) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + target);
    }

    /** A raw client to the server, closed after the test. */
    RawClient raw() throws IOException {
        return raw(0);
    }

    RawClient raw(int receiveBuffer) throws IOException {
        RawClient c = new RawClient(server.address(), receiveBuffer);
        resources.add(c);
        return c;
    }

    /** GET with the JDK's client, with header name/value pairs. */
    HttpResponse<byte[]> get(String target, String... headers) throws IOException, InterruptedException {
        return client.send(request(target, headers).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpRequest.Builder request(String target, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(target)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    /** The access log so far. */
    String log() {
        synchronized (log.getBuffer()) {
            return log.toString();
        }
    }

    /** Waits up to 30 s for an access log line that matches; returns it, or fails. */
    String awaitLogLine(Predicate<String> matches) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            for (String line : log().split("\n")) {
                if (matches.test(line)) {
                    return line;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no such access log line in:\n" + log());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // polling interval
        }
    }

    static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    static long crc(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, data.length);
        return crc.getValue();
    }

    static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }
}
