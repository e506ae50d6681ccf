package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.OpenFileCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server on its cache of open files ({@code --open-file-cache}, on by default), run against
 * each engine: a file changed on disk is served whole, old or new, and new once the validity has
 * passed; a removed file is a 404 then; a link stays refused; the bound holds under many clients;
 * nothing stays open after the server stops (the fixture counts descriptors).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class CachedFilesContract extends ServerFixture {
    static final Duration VALID = Duration.ofMillis(50);

    /**
     * Clients at once in the many-clients tests, and the distinct files of the one that makes the
     * cache evict: 200 and 2,000, or the system properties {@code zerocopy.test.cacheThreads} and
     * {@code zerocopy.test.cacheFiles} for a run by hand (docs/http-server.md).
     */
    static final int CLIENTS = Integer.getInteger("zerocopy.test.cacheThreads", 200);

    static final int FILES = Integer.getInteger("zerocopy.test.cacheFiles", 2000);

    /** Restarts the server with a cache of {@code size} files valid for {@code valid}. */
    void cached(int size, Duration valid) throws IOException {
        start(Duration.ofSeconds(30), 1024, false, size, valid);
    }

    @Test
    void onByDefault_hotFileIsAHit() throws Exception {
        try (RawClient c = raw()) {
            for (int i = 0; i < 3; i++) {
                assertThat(c.get("/small.txt").text()).isEqualTo(SMALL);
            }
        }
        OpenFileCache cache = server.openFileCache();
        assertThat(cache).isNotNull();
        assertThat(cache.validity()).isEqualTo(ServerConfig.DEFAULT_OPEN_FILE_CACHE_VALID);
        assertThat(cache.stats().hits()).isGreaterThanOrEqualTo(2);
        cached(0, VALID);
        assertThat(server.openFileCache()).as("--open-file-cache 0").isNull();
        assertThat(raw().get("/small.txt").text()).isEqualTo(SMALL);
    }

    /** Replaced by rename over and over while clients read it: each body is one version, whole; the last is served once the validity passed. */
    @Test
    void replacedByRename_eachBodyOneVersionWhole_newAfterTheValidity() throws Exception {
        cached(16, VALID);
        byte[][] versions = {bytes(70_000, 1), bytes(90_001, 2), bytes(50_003, 3)};
        Path file = root.resolve("changing.bin");
        Files.write(file, versions[0]);
        AtomicBoolean done = new AtomicBoolean();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        AtomicInteger failures = new AtomicInteger();
        Thread[] readers = new Thread[4];
        for (int t = 0; t < readers.length; t++) {
            readers[t] = new Thread(() -> {
                try (RawClient c = new RawClient(server.address())) {
                    while (!done.get()) {
                        RawClient.Reply reply = c.get("/changing.bin");
                        int version = versionOf(reply.body(), versions);
                        if (reply.status() != 200 || version < 0) {
                            failures.incrementAndGet();
                            return;
                        }
                        seen.merge(version, 1, Integer::sum);
                    }
                } catch (IOException e) {
                    failures.incrementAndGet();
                }
            });
            readers[t].start();
        }
        for (int round = 1; round <= 30; round++) {
            Path next = Files.write(dir.resolve("next.bin"), versions[round % 3]);
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // lets readers in between; not a synchronisation
        }
        done.set(true);
        for (Thread reader : readers) {
            reader.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertThat(failures.get())
                .as("mixed, short or failed bodies; seen %s", seen)
                .isZero();
        int last = 30 % 3;
        awaitBody("/changing.bin", versions[last]);
        assertThat(server.openFileCache().stats().reopens()).isPositive();
    }

    @Test
    void removed_404OnceTheValidityPassed() throws Exception {
        cached(16, VALID);
        Files.writeString(root.resolve("doomed.txt"), "doomed\n");
        RawClient c = raw();
        assertThat(c.get("/doomed.txt").status()).isEqualTo(200);
        Files.delete(root.resolve("doomed.txt"));
        awaitStatus(c, "/doomed.txt", 404);
    }

    @Test
    void replacedByALink_403OnceTheValidityPassed_neverOutside() throws Exception {
        cached(16, VALID);
        Path target = root.resolve("soon-link.txt");
        Files.writeString(target, "inside\n");
        RawClient c = raw();
        assertThat(c.get("/soon-link.txt").text()).isEqualTo("inside\n");
        Path swap = dir.resolve("swap-link");
        Files.createSymbolicLink(swap, dir.resolve("outside/secret.txt"));
        Files.move(swap, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        RawClient.Reply reply = awaitStatus(c, "/soon-link.txt", 403);
        assertThat(reply.text()).doesNotContain(SECRET);
        assertThat(c.get("/soon-link.txt").text()).doesNotContain(SECRET);
    }

    /** A cached file cut while it is sent: the response ends short and the connection closes, as without a cache. */
    @Test
    void shrinkWhileSent_connectionClosedShort() throws Exception {
        cached(16, Duration.ofHours(1));
        Path file = root.resolve("shrinking.bin");
        Files.write(file, bytes(STALL_SIZE, 7));
        try (RawClient warm = new RawClient(server.address())) {
            assertThat(warm.send("HEAD /shrinking.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                            .read(true)
                            .status())
                    .isEqualTo(200);
        }
        RawClient c = raw(16 * 1024);
        c.send("GET /shrinking.bin HTTP/1.1\r\nHost: x\r\n\r\n");
        InputStream in = c.socket().getInputStream();
        assertThat(in.readNBytes(64 * 1024)).hasSize(64 * 1024); // the transfer is under way
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
            writer.truncate(100_000);
        }
        long rest = c.readToClose().length;
        assertThat(64 * 1024 + rest).as("bytes before the close").isLessThan(STALL_SIZE);
        awaitLogLine(line -> line.contains("GET /shrinking.bin"));
    }

    /**
     * A cached file written smaller in place (the same inode) within the validity, before a request
     * for it: its response is planned again from a fresh open, whole and new, where it used to close
     * the connection with nothing sent. Both sizes fit the first slice of the threads engine; the
     * larger one is past what the native path reads in one {@code pread}.
     */
    @Test
    void shrankInPlaceBeforeARequest_answeredFromAFreshOpen() throws Exception {
        cached(16, Duration.ofSeconds(60));
        for (int size : new int[] {50_000, 600_000}) {
            Path file = root.resolve("rewritten-" + size + ".bin");
            Files.write(file, bytes(size, 8));
            RawClient c = raw();
            assertThat(c.get("/" + file.getFileName()).body()).hasSize(size);
            Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            byte[] smaller = bytes(size / 2, 9);
            try (FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE)) {
                writer.truncate(0).write(ByteBuffer.wrap(smaller));
            }
            assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey())
                    .isEqualTo(inode);

            for (int i = 0; i < 2; i++) { // the same connection, twice: each is answered afresh
                RawClient.Reply reply = c.get("/" + file.getFileName());
                assertThat(reply.status()).as("%d bytes, request %d", size, i).isEqualTo(200);
                assertThat(reply.header("content-length")).isEqualTo(String.valueOf(size / 2));
                assertThat(reply.body()).as("%d bytes, request %d", size, i).isEqualTo(smaller);
            }
        }
    }

    @Test
    void fifoAndDirectories_neverCached() throws Exception {
        cached(16, Duration.ofHours(1));
        Path fifo = root.resolve("fifo");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        try {
            RawClient c = raw();
            for (int i = 0; i < 2; i++) {
                assertThat(c.get("/fifo").status()).isEqualTo(403);
                assertThat(c.get("/docs/").text()).contains("docs");
            }
            // docs/index.html is the one file cached; the directories on the way are not
            assertThat(server.openFileCache().stats().openFiles()).isEqualTo(1);
        } finally {
            Files.delete(fifo);
        }
    }

    @Test
    void manyClients_tenHotFiles_noFailure() throws Exception {
        cached(64, Duration.ofMillis(1));
        byte[][] files = new byte[10][];
        for (int i = 0; i < files.length; i++) {
            files[i] = bytes(1000 + i * 997, 100 + i);
            Files.write(root.resolve("hot" + i + ".bin"), files[i]);
        }
        int failures = onManyClients(CLIENTS, (t, c) -> {
            for (int r = 0; r < 10; r++) {
                int i = (t + r) % files.length;
                if (!Arrays.equals(c.get("/hot" + i + ".bin").body(), files[i])) {
                    throw new AssertionError("wrong bytes for hot" + i);
                }
            }
        });
        assertThat(failures).isZero();
        assertThat(server.openFileCache().stats().openFiles()).isLessThanOrEqualTo(files.length);
    }

    @Test
    void manyClients_manyFiles_boundHeld() throws Exception {
        int bound = 64;
        int clients = CLIENTS;
        cached(bound, Duration.ofHours(1));
        Path many = Files.createDirectories(root.resolve("many"));
        for (int i = 0; i < FILES; i++) {
            Files.writeString(many.resolve(i + ".txt"), "file " + i + "\n");
        }
        OpenFileCache cache = server.openFileCache();
        int failures = onManyClients(clients, (t, c) -> {
            for (int i = t; i < FILES; i += clients) {
                RawClient.Reply reply = c.get("/many/" + i + ".txt");
                OpenFileCache.Stats stats = cache.stats();
                if (!reply.text().equals("file " + i + "\n") || stats.openFiles() > bound + clients) {
                    throw new AssertionError(i + ": " + reply.status() + ", " + stats);
                }
            }
        });
        assertThat(failures).isZero();
        OpenFileCache.Stats stats = cache.stats();
        assertThat(stats.openFiles()).isLessThanOrEqualTo(bound);
        assertThat(stats.evictions()).isGreaterThanOrEqualTo(FILES - bound);
    }

    interface ClientTask {
        void run(int client, RawClient connection) throws Exception;
    }

    /** {@code n} keep-alive clients at once, each on its own thread; returns how many failed. */
    int onManyClients(int n, ClientTask task) throws InterruptedException {
        AtomicInteger failures = new AtomicInteger();
        Thread[] threads = new Thread[n];
        for (int t = 0; t < n; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try (RawClient c = new RawClient(server.address())) {
                    task.run(id, c);
                } catch (Throwable e) {
                    if (failures.getAndIncrement() == 0) {
                        e.printStackTrace();
                    }
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(100));
            assertThat(thread.isAlive()).as("client still running").isFalse();
        }
        return failures.get();
    }

    /** Asks until the body is {@code expected}, for up to 10 s; fails on a body that is no version at all. */
    private void awaitBody(String target, byte[] expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (RawClient c = new RawClient(server.address())) {
            while (!Arrays.equals(c.get(target).body(), expected)) {
                assertThat(System.nanoTime()).as("served new by the deadline").isLessThan(deadline);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
            }
        }
    }

    private static RawClient.Reply awaitStatus(RawClient c, String target, int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Map<Integer, Integer> seen = new TreeMap<>();
        while (true) {
            RawClient.Reply reply = c.get(target);
            seen.merge(reply.status(), 1, Integer::sum);
            if (reply.status() == status) {
                return reply;
            }
            assertThat(System.nanoTime())
                    .as("%d by the deadline; seen %s", status, seen)
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // polling interval
        }
    }

    private static int versionOf(byte[] body, byte[][] versions) {
        for (int v = 0; v < versions.length; v++) {
            if (Arrays.equals(body, versions[v])) {
                return v;
            }
        }
        return -1;
    }
}
