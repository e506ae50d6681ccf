package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile-client soak, run against each engine: {@value #CLIENTS} clients at once open
 * {@code http.soak.connections} connections in all (default {@value #DEFAULT_CONNECTIONS}) to
 * 127.0.0.1, each of a kind drawn from a seeded generator: malformed heads, random bytes, heads cut
 * short then closed, heads sent slowly in pieces, downloads abandoned part-way (some with a reset),
 * and well-behaved requests whose bytes are checked. Every well-behaved request must be served
 * correctly throughout; afterwards the server holds no connection and the JVM's descriptors and
 * heap are back to their baseline (polled, after a GC, against a deadline). Every client socket has
 * a read timeout and every loop a bound. {@code -Dhttp.soak.connections=20000} makes the larger run
 * of docs/fuzzing.md, {@code -Dhttp.soak.idleTimeout=S} sets the server's idle timeout (default 30 s:
 * no client here goes silent) and {@code -Dhttp.seed=N} replays a run.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
abstract class SoakContract extends ServerFixture {

    static final int DEFAULT_CONNECTIONS = 600;
    static final int CLIENTS = 8;

    /** Heap may end this much above its baseline: the JIT, class data and the JDK's caches grow too. */
    private static final long HEAP_SLACK = 16 << 20;

    enum Kind {
        MALFORMED,
        GARBAGE,
        TRUNCATED,
        SLOW,
        ABANDONED,
        GOOD
    }

    @Test
    void soak_hostileClients_goodOnesServed_resourcesBackToBaseline() throws Exception {
        int connections = Integer.getInteger("http.soak.connections", DEFAULT_CONNECTIONS);
        Duration idleTimeout = Duration.ofSeconds(Integer.getInteger("http.soak.idleTimeout", 30));
        long seed = HostileRequests.SEED + 19;
        System.out.println(getClass().getSimpleName() + ": " + connections + " connections, idle timeout " + idleTimeout
                + ", -Dhttp.seed=" + HostileRequests.SEED + " replays");
        start(idleTimeout, 1024, false);
        assertThat(raw().get("/small.txt").text()).isEqualTo(SMALL); // what the first request opens for good
        // the cache of open files keeps what the soak asks for open on purpose: counted apart
        int descriptors = Descriptors.countable() ? Descriptors.open() - cachedFiles() : 0;
        long heap = usedHeapAfterGc();

        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicInteger good = new AtomicInteger();
        AtomicInteger[] counts = new AtomicInteger[Kind.values().length];
        Arrays.setAll(counts, i -> new AtomicInteger());
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Random random = new Random(seed + c);
                int share = connections / CLIENTS + (c < connections % CLIENTS ? 1 : 0);
                done.add(clients.submit(() -> {
                    for (int i = 0; i < share; i++) {
                        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
                        counts[kind.ordinal()].incrementAndGet();
                        Timeline timeline = new Timeline();
                        try {
                            if (connect(kind, random, timeline)) {
                                good.incrementAndGet();
                            }
                        } catch (IOException | RuntimeException | AssertionError e) {
                            if (kind == Kind.GOOD || kind == Kind.SLOW) {
                                wrong.add(kind + ": " + e + " (" + timeline.describe() + ")");
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get(240, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        System.out.println(getClass().getSimpleName() + ": kinds " + Arrays.toString(Kind.values()) + " "
                + Arrays.toString(counts) + ", " + good + " well-behaved requests served");

        long timeouts = Arrays.stream(log().split("\n"))
                .filter(line -> line.contains("\" 408 "))
                .count();
        assertThat(wrong)
                .as("well-behaved clients not served correctly (%d answered 408 in the access log)", timeouts)
                .isEmpty();
        assertThat(good.get()).isEqualTo(counts[Kind.GOOD.ordinal()].get() + counts[Kind.SLOW.ordinal()].get());
        awaitNoConnections();
        if (Descriptors.countable()) {
            int cached = cachedFiles();
            assertThat(Descriptors.awaitAtMost(descriptors + cached))
                    .as("open descriptors after the soak, %d of them the cache's open files", cached)
                    .isLessThanOrEqualTo(descriptors + cached);
        }
        assertThat(awaitHeapAtMost(heap + HEAP_SLACK))
                .as("heap after the soak, baseline %d", heap)
                .isLessThanOrEqualTo(heap + HEAP_SLACK);
        assertThat(raw().get("/small.txt").text()).isEqualTo(SMALL);
    }

    /**
     * When a well-behaved client's connection became ready for a request (connected, or the previous
     * response read) and when its request was complete, so that a failure tells an idle timeout the
     * client earned (its request complete later than the timeout after ready) from one it did not.
     */
    static final class Timeline {
        private long ready = System.nanoTime();
        private long sent;

        void ready() {
            ready = System.nanoTime();
            sent = 0;
        }

        void sent() {
            sent = System.nanoTime();
        }

        String describe() {
            long now = System.nanoTime();
            return sent == 0
                    ? "request not complete, ready " + millis(now - ready) + " ms before the failure"
                    : "request complete " + millis(sent - ready) + " ms after the connection was ready for it, "
                            + millis(now - sent) + " ms before the failure";
        }

        private static long millis(long nanos) {
            return TimeUnit.NANOSECONDS.toMillis(nanos);
        }
    }

    /** One connection of this kind; returns whether it was a well-behaved request served correctly. */
    private boolean connect(Kind kind, Random random, Timeline timeline) throws IOException {
        try (RawClient c = new RawClient(server.address())) {
            timeline.ready();
            switch (kind) {
                case MALFORMED -> {
                    c.send(HostileRequests.hostile(random).bytes());
                    c.shutdownOutput();
                    String answer = new String(c.readToClose(), StandardCharsets.ISO_8859_1);
                    assertThat(answer.isEmpty() || answer.startsWith("HTTP/1.1 "))
                            .as(answer)
                            .isTrue();
                }
                case GARBAGE -> {
                    byte[] garbage = new byte[1 + random.nextInt(4096)];
                    random.nextBytes(garbage);
                    c.send(garbage);
                    if (random.nextBoolean()) {
                        c.socket().setSoLinger(true, 0); // a reset instead of a close
                    }
                }
                case TRUNCATED -> {
                    byte[] head = HostileRequests.ascii(HostileRequests.valid(random));
                    c.send(Arrays.copyOf(head, random.nextInt(head.length)));
                }
                case SLOW -> {
                    byte[] head = HostileRequests.ascii("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                    int at = 0;
                    for (int piece = 0; piece < 4 && at < head.length; piece++) {
                        int n = piece == 3 ? head.length - at : 1 + random.nextInt(head.length - at);
                        c.send(Arrays.copyOfRange(head, at, at + n));
                        at += n;
                        if (at == head.length) {
                            timeline.sent();
                        }
                        LockSupport.parkNanos(
                                TimeUnit.MILLISECONDS.toNanos(1 + random.nextInt(5))); // the client is slow
                    }
                    RawClient.Reply reply = c.read(false);
                    assertThat(reply.status()).isEqualTo(200);
                    assertThat(reply.text()).isEqualTo(SMALL);
                    return true;
                }
                case ABANDONED -> {
                    c.send("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
                    InputStream in = c.socket().getInputStream();
                    in.readNBytes(random.nextInt(256 * 1024));
                    if (random.nextBoolean()) {
                        c.socket().setSoLinger(true, 0);
                    }
                }
                case GOOD -> {
                    long first = random.nextInt(BIG_SIZE);
                    long last = first + random.nextInt(64 * 1024);
                    c.send("GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=" + first + "-" + last + "\r\n\r\n");
                    timeline.sent();
                    RawClient.Reply range = c.read(false);
                    timeline.ready();
                    assertThat(range.status()).isEqualTo(206);
                    byte[] expected = Arrays.copyOfRange(big, (int) first, (int) Math.min(last + 1, BIG_SIZE));
                    assertThat(range.body()).isEqualTo(expected);
                    c.send("GET /small.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"); // the same connection, kept alive
                    timeline.sent();
                    assertThat(c.read(false).text()).isEqualTo(SMALL);
                    return true;
                }
                default -> throw new AssertionError(kind);
            }
        }
        return false;
    }

    private void awaitNoConnections() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server.openConnections() > 1) { // the raw() client of the warm-up stays open
            assertThat(System.nanoTime())
                    .as("open connections: " + server.openConnections())
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    /** Polls, with a GC before each look, until at most {@code limit} bytes of heap are used or 30 s passed. */
    private static long awaitHeapAtMost(long limit) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long used = usedHeapAfterGc();
        while (used > limit && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
            used = usedHeapAfterGc();
        }
        return used;
    }

    /** Descriptors the server's cache of open files holds now (0 without one). */
    private int cachedFiles() {
        return server.openFileCache() == null
                ? 0
                : server.openFileCache().stats().openFiles();
    }
}
