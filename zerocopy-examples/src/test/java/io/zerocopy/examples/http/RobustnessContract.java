package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a hostile or careless client cannot do to the server, run against each engine: climb out of
 * the root, crash it with malformed heads, hold it with a slowloris or a stalled download, or
 * exceed its connection limit without a polite refusal. The fixture checks after each test that no
 * descriptor leaked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class RobustnessContract extends ServerFixture {

    private static final int HOSTILE_CASES = 40;

    @BeforeAll
    static void seed() {
        System.out.println("RobustnessContract seed: " + HostileRequests.SEED + " (-Dhttp.seed to replay)");
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> matrix() {
        return TargetResolverTest.matrix();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("matrix")
    void traversal_neverOutsideTheRoot(String target, int status, int statusFollowing) throws Exception {
        RawClient raw = raw();
        raw.send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        RawClient.Reply reply = raw.read(false);
        assertThat(reply.status()).as(target).isEqualTo(status);
        assertThat(reply.text()).doesNotContain(SECRET);
        if (status == 400) {
            assertThat(reply.header("connection")).isEqualTo("close");
        }
    }

    /**
     * A writer swaps {@code root/d} for a link to a directory outside the root and back, over and
     * over, while a keep-alive client asks for {@code /d/f.txt} for a few seconds: the outside file is
     * never served, the inside one is. A resolver that looks by path and then opens by path served
     * the outside file in about one 200 in five. The cache of open files looks at every request
     * here (validity 0), so that each one opens beneath the root again, racing the writer.
     */
    @Test
    void racingLinkSwap_neverServesOutside() throws Exception {
        start(Duration.ofSeconds(30), 1024, false, ServerConfig.DEFAULT_OPEN_FILE_CACHE, Duration.ZERO);
        String inside = "inside d\n";
        String outsideText = "outside d: must never be served\n";
        Path d = Files.createDirectories(root.resolve("d"));
        Files.writeString(d.resolve("f.txt"), inside);
        Path outside = Files.createDirectories(dir.resolve("race-outside"));
        Files.writeString(outside.resolve("f.txt"), outsideText);
        Path aside = dir.resolve("d-aside"); // outside the root: never served while set aside
        Path link = root.resolve("d-link");
        Files.createSymbolicLink(link, outside);
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> swap(d, aside, link, done));
        Map<Integer, Integer> statuses = new TreeMap<>();
        try {
            RawClient raw = raw();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            for (int i = 0; i < 100_000 && System.nanoTime() < deadline && !writer.isDone(); i++) {
                RawClient.Reply reply = raw.get("/d/f.txt");
                assertThat(reply.text()).as("request %d, %s", i, statuses).doesNotContain(outsideText);
                if (reply.status() == 200) {
                    assertThat(reply.text()).isEqualTo(inside);
                }
                statuses.merge(reply.status(), 1, Integer::sum);
                if ("close".equals(reply.header("connection"))) {
                    raw = raw();
                }
            }
        } finally {
            done.set(true);
            int swaps = writer.get(30, TimeUnit.SECONDS);
            System.out.println("racingLinkSwap: " + swaps + " swaps, statuses " + statuses);
            Files.delete(link);
            Files.delete(d.resolve("f.txt"));
            Files.delete(d);
        }
        assertThat(statuses.get(200)).as("inside served, %s", statuses).isNotNull();
        assertThat(statuses.keySet()).as("refused while swapped").contains(403);
    }

    /** Swaps {@code d} for {@code link} and back until {@code done}; returns the swaps made. */
    private static int swap(Path d, Path aside, Path link, AtomicBoolean done) {
        int swaps = 0;
        try {
            while (!done.get() && swaps < 10_000_000) {
                Files.move(d, aside, StandardCopyOption.ATOMIC_MOVE);
                Files.move(link, d, StandardCopyOption.ATOMIC_MOVE);
                Files.move(d, link, StandardCopyOption.ATOMIC_MOVE);
                Files.move(aside, d, StandardCopyOption.ATOMIC_MOVE);
                swaps++;
            }
            return swaps;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Seeded hostile heads sent whole, then end of stream: an answer the parser predicts, and a close. */
    @TestFactory
    Stream<DynamicTest> hostileRequests_answeredOrClosed_serverUnharmed() {
        Random random = new Random(HostileRequests.SEED + 2);
        return IntStream.range(0, HOSTILE_CASES).mapToObj(i -> {
            HostileRequests.Case c = HostileRequests.hostile(random);
            return DynamicTest.dynamicTest("#" + i + " " + c.kind(), () -> {
                RequestParser.Result expected = RequestParser.parse(c.bytes(), 0, c.bytes().length);
                try (RawClient raw = new RawClient(server.address())) {
                    raw.send(c.bytes());
                    raw.shutdownOutput();
                    String answer = new String(raw.readToClose(), StandardCharsets.ISO_8859_1);
                    if (expected.incomplete()) {
                        assertThat(answer).as(c.toString()).isEmpty();
                    } else if (expected.request() == null) {
                        assertThat(answer).as(c.toString()).startsWith("HTTP/1.1 " + expected.status() + " ");
                    } else {
                        assertThat(answer).as(c.toString()).matches("(?s)HTTP/1\\.1 [2-5]\\d\\d [A-Za-z ]+\r\n.*");
                    }
                }
                try (RawClient after = new RawClient(server.address())) {
                    assertThat(after.get("/small.txt").text()).isEqualTo(SMALL);
                }
            });
        });
    }

    @Test
    void limits_longRequestLine414_longHeaders431_thenClosed() throws Exception {
        RawClient line = raw();
        line.send("GET /" + "a".repeat(RequestParser.MAX_REQUEST_LINE) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(line.read(false).status()).isEqualTo(414);
        assertThat(line.readToClose()).isEmpty();
        RawClient fields = raw();
        fields.send("GET / HTTP/1.1\r\nHost: x\r\n" + ("X-Pad: " + "p".repeat(1000) + "\r\n").repeat(20) + "\r\n");
        assertThat(fields.read(false).status()).isEqualTo(431);
        assertThat(fields.readToClose()).isEmpty();
        RawClient many = raw();
        many.send("GET / HTTP/1.1\r\nHost: x\r\n" + "A: b\r\n".repeat(RequestParser.MAX_HEADERS + 1) + "\r\n");
        assertThat(many.read(false).status()).isEqualTo(431);
    }

    /** A client that sends a byte of its head every 50 ms is cut at the idle timeout, while others are served. */
    @Test
    void slowloris_cutAfterIdleTimeout_othersServed() throws Exception {
        start(Duration.ofSeconds(1), 64, false);
        RawClient slow = raw();
        slow.send("GET /small.txt HTTP/1.1\r\nHost: x\r\n");
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try {
            trickle.scheduleAtFixedRate(
                    () -> {
                        try {
                            slow.send("X");
                        } catch (Exception closed) {
                            throw new IllegalStateException(closed); // ends the schedule once the server cut it
                        }
                    },
                    50,
                    50,
                    TimeUnit.MILLISECONDS);
            HttpResponse<byte[]> other = get("/big.bin");
            assertThat(crc(other.body())).isEqualTo(crc(big));
            // readToClose fails if the server has not closed within the client's read timeout
            String answer = new String(slow.readToClose(), StandardCharsets.ISO_8859_1);
            assertThat(answer).as("a 408 at most, then the close").matches("(HTTP/1\\.1 408 (?s).*)?");
        } finally {
            trickle.shutdownNow();
        }
    }

    @Test
    void idleKeepAlive_closedAfterIdleTimeout() throws Exception {
        start(Duration.ofMillis(500), 64, false);
        RawClient idle = raw();
        assertThat(idle.get("/small.txt").text()).isEqualTo(SMALL);
        assertThat(idle.readToClose()).as("closed without a word once idle").isEmpty();
        awaitOpenConnections(0);
    }

    @Test
    void maxConnections_refusedPolitelyWith503_thenServedAgain() throws Exception {
        start(Duration.ofSeconds(30), 2, false);
        RawClient first = raw();
        RawClient second = raw();
        assertThat(first.get("/small.txt").status()).isEqualTo(200);
        assertThat(second.get("/small.txt").status()).isEqualTo(200);
        RawClient third = raw();
        third.send("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
        RawClient.Reply refused = third.read(false);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("connection")).isEqualTo("close");
        assertThat(refused.header("retry-after")).isEqualTo("1");
        assertThat(third.readToClose()).isEmpty();
        third.close();
        first.close();
        awaitOpenConnections(1);
        assertThat(raw().get("/small.txt").status()).isEqualTo(200);
    }

    /** A client that stops reading a large body holds only its own connection; it is cut after the idle timeout. */
    @Test
    void stalledReader_othersServed_thenCut() throws Exception {
        start(Duration.ofSeconds(2), 64, false);
        RawClient stalled = raw(16 * 1024);
        stalled.send("GET /stall.bin HTTP/1.1\r\nHost: x\r\n\r\n");
        List<CompletableFuture<HttpResponse<byte[]>>> others = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            others.add(client.sendAsync(request("/big.bin").GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (CompletableFuture<HttpResponse<byte[]>> other : others) {
            assertThat(crc(other.get(60, TimeUnit.SECONDS).body())).isEqualTo(crc(big));
        }
        String cut = awaitLogLine(l -> l.contains("\"GET /stall.bin HTTP/1.1\" 200 "));
        long sent = Long.parseLong(cut.split("\" 200 ")[1].split(" ")[0]);
        assertThat(sent).as("body bytes sent before the cut").isLessThan(STALL_SIZE);
        assertThat(stalled.readToClose().length).isLessThan(STALL_SIZE);
    }

    /**
     * At shutdown a response in progress completes, an idle connection is closed, and new ones are
     * refused while it goes on (the event loop once left its port listening through the grace).
     */
    @Test
    void shutdown_graceful() throws Exception {
        RawClient idle = raw();
        assertThat(idle.get("/small.txt").status()).isEqualTo(200);
        RawClient busy = raw(64 * 1024);
        busy.send("GET /stall.bin HTTP/1.1\r\nHost: x\r\n\r\n");
        byte[] firstBytes = busy.socket().getInputStream().readNBytes(16);
        assertThat(new String(firstBytes, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
        InetSocketAddress address = server.address();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> server.close(Duration.ofSeconds(30)));
        assertThat(idle.readToClose()).as("the idle connection is closed").isEmpty();
        assertThat(refusedBeforeDeadline(address))
                .as("a new connection refused while the response in progress goes on")
                .isTrue();
        byte[] rest = busy.readToClose();
        closing.get(60, TimeUnit.SECONDS);
        String text =
                new String(firstBytes, StandardCharsets.ISO_8859_1) + new String(rest, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n") + 4;
        assertThat(text.length() - headEnd).as("the whole body arrived").isEqualTo(STALL_SIZE);
    }

    /** Whether a connection to {@code address} is refused within 10 s (each one accepted meanwhile closed at once). */
    private static boolean refusedBeforeDeadline(InetSocketAddress address) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(address, 1000);
            } catch (ConnectException refused) {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
        }
        return false;
    }

    private void awaitOpenConnections(int atMost) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server.openConnections() > atMost) {
            assertThat(System.nanoTime())
                    .as("open connections: " + server.openConnections())
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
        }
    }
}
