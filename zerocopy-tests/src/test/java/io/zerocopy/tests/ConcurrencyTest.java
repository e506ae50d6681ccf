package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many transfers at once, each with its own file and its own loopback connection, started together
 * from a latch: every one arrives byte-exact. Once with a copier per thread and every strategy, and
 * once with a single configured {@link TransferOptions} shared by all the threads (it is documented as
 * thread-safe), mixing file to socket, file to file and socket to file. The threads are the test's
 * own, not the common pool (which has one thread on a two-core machine).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ConcurrencyTest {
    private static final long SEED = Seeds.announce(ConcurrencyTest.class);

    private static final int THREADS = 32;
    private static final String[] STRATEGIES = {"auto", "transferTo", "mmap", "buffered"};

    @TempDir
    Path dir;

    private ExecutorService threads;

    @BeforeEach
    void startThreads() {
        threads = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(30, TimeUnit.SECONDS))
                .as("test threads ended")
                .isTrue();
    }

    /** A file of random bytes between 64 KiB and 2 MiB, different for each index. */
    private Path file(int index, byte[][] contents) throws Exception {
        Random random = new Random(Seeds.derive(SEED, index));
        contents[index] = TestFiles.randomBytes((64 << 10) + random.nextInt(2 << 20), random.nextLong());
        return TestFiles.write(dir.resolve("source-" + index), contents[index]);
    }

    @Test
    void copy_dozensOfFilesToSeparateSocketsAtOnce() throws Exception {
        byte[][] contents = new byte[THREADS][];
        List<Callable<Void>> tasks = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < THREADS; i++) {
            Path file = file(i, contents);
            byte[] content = contents[i];
            String strategy = STRATEGIES[i % STRATEGIES.length];
            boolean blocking = (i / STRATEGIES.length) % 2 == 0;
            TransferOptions.Builder options =
                    TransferOptions.builder().mappedWindow(256 << 10).bufferSize(64 << 10);
            TransferOptions copier = (strategy.equals("auto") ? options : options.strategy(strategy)).build();
            String what = strategy + (blocking ? " blocking" : " non-blocking") + " #" + i + " (seed " + SEED + ")";
            tasks.add(() -> sendToSocket(copier, file, content, blocking, start, what));
        }
        runTogether(tasks, start);
    }

    @Test
    void copy_oneSharedOptionsFromManyThreads() throws Exception {
        RecordingListener ignored = new RecordingListener();
        TransferOptions shared = TransferOptions.builder()
                .bufferSize(16 << 10)
                .mappedWindow(128 << 10)
                .stallTimeout(Duration.ofSeconds(30))
                .listener(ignored)
                .build();
        byte[][] contents = new byte[THREADS][];
        List<Callable<Void>> tasks = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < THREADS; i++) {
            Path file = file(i, contents);
            byte[] content = contents[i];
            Path target = dir.resolve("target-" + i);
            String what = "task " + i + " (seed " + SEED + ")";
            switch (i % 3) {
                case 0 -> tasks.add(() -> sendToSocket(shared, file, content, true, start, what));
                case 1 ->
                    tasks.add(() -> {
                        start.await();
                        assertThat(Transfers.copy(file, target, shared))
                                .as(what)
                                .isEqualTo(content.length);
                        assertThat(TestFiles.crc32c(target))
                                .as(what + ": CRC32C of the copy")
                                .isEqualTo(TestFiles.crc32c(content));
                        return null;
                    });
                default ->
                    tasks.add(() -> {
                        try (LoopbackSender sender = LoopbackSender.toChannel(file, 0, content.length);
                                FileChannel out = FileChannel.open(
                                        target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                            start.await();
                            assertThat(Transfers.copy((ReadableByteChannel) sender.channel(), out, shared))
                                    .as(what)
                                    .isEqualTo(content.length);
                            sender.awaitSent();
                        }
                        assertThat(Files.size(target))
                                .as(what + ": size of the copy")
                                .isEqualTo(content.length);
                        assertThat(TestFiles.crc32c(target))
                                .as(what + ": CRC32C of the copy")
                                .isEqualTo(TestFiles.crc32c(content));
                        return null;
                    });
            }
        }
        runTogether(tasks, start);
        assertThat(ignored.failure())
                .as("a failure the shared listener heard of")
                .isNull();
    }

    /** Sends {@code file} over a connection of its own once {@code start} opens, and checks what arrived. */
    private static Void sendToSocket(
            TransferOptions copier, Path file, byte[] content, boolean blocking, CountDownLatch start, String what)
            throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
            long sent;
            try (SocketChannel channel = receiver.connectChannel()) {
                channel.configureBlocking(blocking);
                start.await();
                sent = Transfers.copy(file, (WritableByteChannel) channel, copier);
            }
            LoopbackReceiver.Received received = receiver.received();
            assertThat(sent).as(what + ": returned count").isEqualTo(content.length);
            assertThat(received.bytes()).as(what + ": bytes received").isEqualTo(content.length);
            assertThat(received.crc32c()).as(what + ": CRC32C").isEqualTo(TestFiles.crc32c(content));
        }
        return null;
    }

    /** Submits every task, lets them go at once, and rethrows the first failure. */
    private void runTogether(List<Callable<Void>> tasks, CountDownLatch start) throws Exception {
        List<Future<Void>> futures = new ArrayList<>();
        for (Callable<Void> task : tasks) {
            futures.add(threads.submit(task));
        }
        start.countDown();
        for (Future<Void> future : futures) {
            future.get(90, TimeUnit.SECONDS);
        }
    }
}
