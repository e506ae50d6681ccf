package io.zerocopy.micrometer;

import static io.zerocopy.micrometer.TransferMetrics.ACTIVE;
import static io.zerocopy.micrometer.TransferMetrics.BYTES;
import static io.zerocopy.micrometer.TransferMetrics.COMPLETED;
import static io.zerocopy.micrometer.TransferMetrics.DURATION;
import static io.zerocopy.micrometer.TransferMetrics.ENDED;
import static io.zerocopy.micrometer.TransferMetrics.FAILED;
import static io.zerocopy.micrometer.TransferMetrics.OUTCOME_TAG;
import static io.zerocopy.micrometer.TransferMetrics.STARTED;
import static io.zerocopy.micrometer.TransferMetrics.STRATEGY_TAG;
import static io.zerocopy.micrometer.TransferMetrics.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real transfers through {@link TransferMetrics}, read back from a {@link SimpleMeterRegistry}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransferMetricsTest {

    @TempDir
    Path dir;

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final TransferMetrics metrics = new TransferMetrics(registry);
    private final TransferOptions options =
            TransferOptions.builder().listener(metrics).build();

    @AfterEach
    void closeRegistry() {
        registry.close();
    }

    @Test
    void copy_fileToFile_recordsOneCompletedTransfer() throws Exception {
        Path source = file("source", 1_000_003, 1);
        Path target = dir.resolve("target");

        TransferResult result;
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            result = Transfers.copyAsync(source, out, task -> new Thread(task).start(), options)
                    .get(30, TimeUnit.SECONDS);
        }

        String strategy = result.strategy();
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
        assertThat(counter(STARTED, STRATEGY_TAG, strategy)).isEqualTo(1);
        assertThat(counter(ENDED, STRATEGY_TAG, strategy, OUTCOME_TAG, COMPLETED))
                .isEqualTo(1);
        assertThat(counter(BYTES, STRATEGY_TAG, strategy, OUTCOME_TAG, COMPLETED))
                .isEqualTo(1_000_003);
        Timer duration = registry.get(DURATION).tag(STRATEGY_TAG, strategy).timer();
        assertThat(duration.count()).isEqualTo(1);
        assertThat(duration.totalTime(TimeUnit.NANOSECONDS))
                .isEqualTo((double) result.elapsed().toNanos());
        assertThat(active()).isZero();
        assertThat(failures()).isZero();
        assertThat(registry.get(BYTES).tag(OUTCOME_TAG, FAILED).counter().count())
                .isZero();
    }

    @Test
    void copy_fileToLoopbackSocket_recordsBytesByTheStrategyThatRan() throws Exception {
        Path source = file("source", 3 << 20, 2);
        byte[] received;
        long sent;
        try (ServerSocketChannel server =
                        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept()) {
            CompletableFuture<byte[]> drained = CompletableFuture.supplyAsync(() -> readToEnd(accepted));
            sent = Transfers.copy(source, client, options);
            client.shutdownOutput();
            received = drained.get(30, TimeUnit.SECONDS);
        }

        assertThat(sent).isEqualTo(3 << 20);
        assertThat(received).isEqualTo(Files.readAllBytes(source));
        Counter started = registry.get(STARTED).counter(); // exactly one strategy ran, or this throws
        String strategy = started.getId().getTag(STRATEGY_TAG);
        assertThat(started.count()).isEqualTo(1);
        assertThat(counter(BYTES, STRATEGY_TAG, strategy, OUTCOME_TAG, COMPLETED))
                .isEqualTo(3 << 20);
        assertThat(registry.get(DURATION).tag(STRATEGY_TAG, strategy).timer().count())
                .isEqualTo(1);
        assertThat(active()).isZero();
    }

    @Test
    void copy_targetFailsMidway_recordsFailureWithItsBytes() throws Exception {
        Path source = file("source", 100_000, 3);
        FailingTarget target = FailingTarget.failingAfter(12_345, 1_000);

        TransferException failure =
                catchThrowableOfType(TransferException.class, () -> Transfers.copy(source, target, options));

        assertThat(failure.bytesTransferred()).isEqualTo(12_345).isEqualTo(target.accepted());
        assertThat(failures()).isEqualTo(1);
        assertThat(counter(BYTES, STRATEGY_TAG, UNKNOWN, OUTCOME_TAG, FAILED)).isEqualTo(12_345);
        assertThat(registry.find(ENDED).tag(OUTCOME_TAG, COMPLETED).counters()).isEmpty();
        assertThat(registry.find(DURATION).timers()).isEmpty();
        assertThat(registry.get(STARTED).counter().count()).isEqualTo(1);
        assertThat(active()).isZero();
    }

    @Test
    void open_activeUntilClosed_thenCountedAsFailed() throws Exception {
        Path source = file("source", 50_000, 4);

        Transfer transfer = Transfers.open(source, FailingTarget.accepting(), options);
        assertThat(active()).isEqualTo(1);
        transfer.close();

        assertThat(active()).isZero();
        assertThat(failures()).isEqualTo(1);
        assertThat(counter(BYTES, STRATEGY_TAG, UNKNOWN, OUTCOME_TAG, FAILED)).isZero();
    }

    /**
     * Transfers opened on several threads at once are all active together; then each is driven to
     * its end on its own thread, a third of them into a target that fails, and every count is exact.
     */
    @Test
    void concurrentTransfers_countedExactly() throws Exception {
        int threads = 4;
        int perThread = 30;
        int size = 20_000;
        int failAfter = 7_000;
        Path source = file("source", size, 5);
        CountDownLatch opened = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    Transfer first = Transfers.open(source, FailingTarget.accepting(), options);
                    opened.countDown();
                    assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
                    drive(first);
                    for (int i = 1; i < perThread; i++) {
                        boolean fails = i % 3 == 0;
                        FailingTarget target =
                                fails ? FailingTarget.failingAfter(failAfter, 1_000) : FailingTarget.accepting();
                        try (Transfer transfer = Transfers.open(source, target, options)) {
                            drive(transfer);
                            assertThat(fails).isFalse();
                        } catch (TransferException e) {
                            assertThat(fails).isTrue();
                            assertThat(e.bytesTransferred()).isEqualTo(failAfter);
                        }
                    }
                    return null;
                }));
            }
            assertThat(opened.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(active()).isEqualTo(threads);
            go.countDown();
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        int failed = threads * ((perThread - 1) / 3);
        int completed = threads * perThread - failed;
        assertThat(registry.get(STARTED).counters().stream()
                        .mapToDouble(Counter::count)
                        .sum())
                .isEqualTo(threads * perThread);
        assertThat(sum(ENDED, COMPLETED)).isEqualTo(completed);
        assertThat(failures()).isEqualTo(failed);
        assertThat(sum(BYTES, COMPLETED)).isEqualTo((double) completed * size);
        assertThat(sum(BYTES, FAILED)).isEqualTo((double) failed * failAfter);
        assertThat(registry.get(DURATION).timers().stream()
                        .mapToLong(Timer::count)
                        .sum())
                .isEqualTo(completed);
        assertThat(active()).isZero();
    }

    /**
     * A registry that refuses a meter (here: a timer already holds the started counter's name and
     * tags) makes {@code onStart} throw, which aborts the transfer without {@code onFailure}; the
     * transfer must then not stay counted as active.
     */
    @Test
    void registryRefusesAMeter_transferAbortedAndNotLeftActive() throws Exception {
        registry.timer(STARTED, STRATEGY_TAG, "buffered");
        Path source = file("source", 10_000, 7);
        TransferOptions buffered =
                TransferOptions.builder().strategy("buffered").listener(metrics).build();

        assertThatThrownBy(() -> Transfers.copy(source, FailingTarget.accepting(), buffered))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(active()).isZero();
    }

    @Test
    void commonTags_onEveryMeter() throws Exception {
        MeterRegistry tagged = new SimpleMeterRegistry();
        TransferMetrics withTags = new TransferMetrics(tagged, Tags.of("service", "media"));
        Path source = file("source", 10_000, 6);

        Transfers.copy(
                source,
                dir.resolve("target"),
                TransferOptions.builder().listener(withTags).build());

        Set<String> names =
                tagged.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
        assertThat(names).containsExactlyInAnyOrder(STARTED, ACTIVE, ENDED, BYTES, DURATION);
        assertThat(tagged.getMeters())
                .allSatisfy(m -> assertThat(m.getId().getTag("service")).isEqualTo("media"));
        assertThat(tagged.getMeters())
                .filteredOn(m -> m.getId().getName().equals(BYTES))
                .allSatisfy(m -> assertThat(m.getId().getBaseUnit()).isEqualTo("bytes"));
    }

    @Test
    void constructor_rejectsTheTagKeysItSets() {
        assertThatThrownBy(() -> new TransferMetrics(registry, Tags.of("strategy", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tags: [tag(strategy=x)] (expected: no key strategy or outcome)");
        assertThatThrownBy(() -> new TransferMetrics(registry, Tags.of("outcome", "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TransferMetrics(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("registry");
        assertThatThrownBy(() -> new TransferMetrics(registry, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("tags");
    }

    @Test
    void toString_namesRegistryTagsAndActive() {
        assertThat(new TransferMetrics(new SimpleMeterRegistry(), Tags.of("a", "b")))
                .hasToString("TransferMetrics{SimpleMeterRegistry, tags=[tag(a=b)], active=0}");
    }

    private static void drive(Transfer transfer) throws IOException {
        while (!transfer.isDone()) {
            transfer.advance();
        }
    }

    private Path file(String name, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return Files.write(dir.resolve(name), bytes);
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    private double sum(String name, String outcome) {
        return registry.get(name).tag(OUTCOME_TAG, outcome).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    private double failures() {
        return counter(ENDED, STRATEGY_TAG, UNKNOWN, OUTCOME_TAG, FAILED);
    }

    private double active() {
        return registry.get(ACTIVE).gauge().value();
    }

    private static byte[] readToEnd(SocketChannel channel) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (channel.read(buffer) >= 0) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
