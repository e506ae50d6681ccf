package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.OpenFile;
import io.zerocopy.OpenFileCache;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OpenFileCache} under 200 threads at once (virtual where the JDK has them): what every run of
 * {@link OpenFileCacheContract} also checks, with the fixture it shares. The system properties
 * {@code zerocopy.test.cacheThreads} and {@code zerocopy.test.cacheFiles} (200 and 2,000) scale it
 * up for a run by hand, such as 1,000 threads on 10,000 files (docs/http-server.md).
 */
abstract class OpenFileCacheManyThreads {
    static final Duration LONG = Duration.ofHours(1);

    /** Threads at once in each test. */
    static final int THREADS = Integer.getInteger("zerocopy.test.cacheThreads", 200);

    /** Distinct files in the test that makes the cache evict. */
    static final int FILES = Integer.getInteger("zerocopy.test.cacheFiles", 2000);

    @TempDir
    Path dir;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(ThreadKind.PLATFORM);

    /** Whether this run opens files natively. */
    abstract boolean natively();

    @BeforeEach
    void checkHowItOpens() throws IOException {
        Path probe = Files.writeString(dir.resolve("probe"), "p");
        try (OpenFile file = OpenFile.open(probe)) {
            assumeTrue(file.openedNatively() == natively(), natively() ? "native access" : "no native access");
        }
    }

    @Test
    void manyThreads_tenHotFiles_noFailureNothingLeftOpen() throws Exception {
        Path[] files = new Path[10];
        for (int i = 0; i < files.length; i++) {
            files[i] = Files.writeString(dir.resolve("hot" + i + ".txt"), content(i));
        }
        try (OpenFileCache cache = OpenFileCache.create(100, Duration.ofMillis(1))) {
            int failures = onManyThreads(THREADS, t -> {
                for (int r = 0; r < 20; r++) {
                    int i = (t + r) % files.length;
                    try (OpenFile file = cache.open(files[i])) {
                        if (!read(file).equals(content(i))) {
                            throw new AssertionError("wrong bytes for " + files[i]);
                        }
                    }
                }
            });
            assertThat(failures).isZero();
            assertThat(cache.stats().leases()).isZero();
            assertThat(cache.stats().openFiles()).isLessThanOrEqualTo(files.length);
            assertThat(cache.stats().hits()).isPositive();
        }
    }

    @Test
    void manyThreads_manyFiles_boundHeld() throws Exception {
        int count = FILES;
        int bound = 64;
        int threads = THREADS;
        for (int i = 0; i < count; i++) {
            Files.writeString(dir.resolve(i + ".txt"), content(i));
        }
        try (OpenFileCache cache = OpenFileCache.create(bound, LONG)) {
            int failures = onManyThreads(threads, t -> {
                for (int i = t; i < count; i += threads) {
                    try (OpenFile file = cache.open(dir.resolve(i + ".txt"))) {
                        OpenFileCache.Stats stats = cache.stats();
                        if (stats.openFiles() > bound + threads || !read(file).equals(content(i))) {
                            throw new AssertionError(i + ": " + stats);
                        }
                    }
                }
            });
            assertThat(failures).isZero();
            OpenFileCache.Stats stats = cache.stats();
            assertThat(stats.openFiles()).isLessThanOrEqualTo(bound);
            assertThat(stats.misses()).isEqualTo(count);
            assertThat(stats.evictions()).isGreaterThanOrEqualTo(count - bound);
        }
    }

    /**
     * Threads opening files at random from more than the bound: hits move the entries' last use
     * while another thread evicts, and every open must still hand out a lease that closes.
     */
    @Test
    void manyThreads_randomOpensOverMoreFilesThanTheBound_noFailureNothingHeld() throws Exception {
        int count = 2048;
        int bound = 512; // a sort long enough to be raced
        for (int i = 0; i < count; i++) {
            Files.writeString(dir.resolve(i + ".txt"), content(i));
        }
        try (OpenFileCache cache = OpenFileCache.create(bound, LONG)) {
            int failures = onManyThreads(THREADS, t -> {
                java.util.Random random = new java.util.Random(t);
                for (int r = 0; r < 500; r++) {
                    int i = random.nextInt(count);
                    try (OpenFile file = cache.open(dir.resolve(i + ".txt"))) {
                        if (file.attributes().size() != content(i).length()) {
                            throw new AssertionError(
                                    i + ": " + file.attributes().size());
                        }
                    }
                }
            });
            assertThat(failures).isZero();
            OpenFileCache.Stats stats = cache.stats();
            assertThat(stats.leases()).isZero();
            assertThat(stats.openFiles()).isLessThanOrEqualTo(bound);
            assertThat(stats.evictions()).isPositive();
        }
    }

    interface Task {
        void run(int thread) throws Exception;
    }

    /** Runs {@code task} on {@code n} threads at once (virtual where the JDK has them); returns how many failed. */
    static int onManyThreads(int n, Task task) throws InterruptedException {
        ThreadKind kind = Runtime.version().feature() >= 21 ? ThreadKind.VIRTUAL : ThreadKind.PLATFORM;
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        Thread[] threads = new Thread[n];
        for (int t = 0; t < n; t++) {
            int id = t;
            threads[t] = kind.newThread(
                    () -> {
                        try {
                            start.await();
                            task.run(id);
                        } catch (Throwable e) {
                            if (failures.getAndIncrement() == 0) {
                                e.printStackTrace();
                            }
                        }
                    },
                    "cache-" + t);
            threads[t].start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(50));
            if (thread.isAlive()) {
                throw new AssertionError(thread + " still running");
            }
        }
        return failures.get();
    }

    static String content(int i) {
        return ("file " + i + " ").repeat(1 + i % 7);
    }

    /** The whole file, read at positions as a lease must be. */
    static String read(OpenFile file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) file.attributes().size() + 1);
        long position = 0;
        for (int n; (n = file.channel().read(buffer, position)) > 0; ) {
            position += n;
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }
}
