package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.spi.ChannelKind;
import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.tests.Connection;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The splice step driven directly, the way the engine drives an exact-count copy: every call asks
 * for at most what is left of the count, and at random for less than the pipe holds. The target
 * must get exactly the first {@code count} bytes and the bytes after them must still be waiting in
 * the source socket. In package {@code io.zerocopy} to reach the package-private strategy of the
 * packaged jar (its Java 22 part is visible only there).
 *
 * <p>Seeded: {@code -Dzerocopy.seed=N} replays a run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpliceStepTest {
    private static final long SEED =
            Long.getLong("zerocopy.seed", ThreadLocalRandom.current().nextLong());
    private static final int TRAILING = 5000;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsJava22() {
        System.out.println("SpliceStepTest: seed " + SEED + " (replay with -Dzerocopy.seed=" + SEED + ")");
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 22, "splice needs Java 22 or later; this is Java " + feature);
        assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
                .as("JVM flags of this execution (see the module's pom)")
                .contains("--enable-native-access=ALL-UNNAMED");
    }

    @ParameterizedTest(name = "count {0}")
    @ValueSource(ints = {1, 4096, 65_537, 1_000_003})
    void move_neverReadsPastCount_socket(int count) throws Exception {
        Random random = new Random(SEED + count);
        byte[] data = new byte[count + TRAILING];
        random.nextBytes(data);
        try (Connection source = Connection.open();
                Connection target = Connection.open()) {
            source.send(data, false);
            TransferRequest request = TransferRequest.builder()
                    .source(source.near(), ChannelKind.SOCKET)
                    .target(target.near(), ChannelKind.SOCKET)
                    .build();
            Support support = SpliceStrategy.INSTANCE.supports(request);
            assertThat(support.supported()).as(support.reason()).isTrue();

            try (TransferStep step = SpliceStrategy.INSTANCE.open(request)) {
                drive(step, count, random);
            }

            assertThat(target.receive(count)).isEqualTo(Arrays.copyOf(data, count));
            ByteBuffer rest = ByteBuffer.allocate(TRAILING);
            while (rest.hasRemaining()) {
                assertThat(source.near().read(rest))
                        .as("source still holds the bytes after the count")
                        .isPositive();
            }
            assertThat(rest.array()).isEqualTo(Arrays.copyOfRange(data, count, data.length));
        }
    }

    @ParameterizedTest(name = "count {0}")
    @ValueSource(ints = {1, 65_537, 1_000_003})
    void move_neverReadsPastCount_file(int count) throws Exception {
        Random random = new Random(SEED - count);
        byte[] data = new byte[count + TRAILING];
        random.nextBytes(data);
        Path file = dir.resolve("target");
        try (Connection source = Connection.open();
                FileChannel target = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            source.send(data, false);
            target.position(10);
            TransferRequest request = TransferRequest.builder()
                    .source(source.near(), ChannelKind.SOCKET)
                    .target(target, ChannelKind.FILE)
                    .build();

            try (TransferStep step = SpliceStrategy.INSTANCE.open(request)) {
                drive(step, count, random);
            }

            assertThat(target.position()).as("target position after close").isEqualTo(10 + count);
            ByteBuffer rest = ByteBuffer.allocate(TRAILING);
            while (rest.hasRemaining()) {
                assertThat(source.near().read(rest)).isPositive();
            }
            assertThat(rest.array()).isEqualTo(Arrays.copyOfRange(data, count, data.length));
        }
        byte[] written = Files.readAllBytes(file);
        assertThat(Arrays.copyOfRange(written, 10, written.length)).isEqualTo(Arrays.copyOf(data, count));
    }

    /** Moves exactly {@code count} bytes, asking for random amounts up to what is left. */
    private static void drive(TransferStep step, long count, Random random) throws Exception {
        long moved = 0;
        while (moved < count) {
            long left = count - moved;
            long ask = random.nextBoolean() ? left : 1 + (long) (random.nextDouble() * left);
            long n = step.move(moved, ask);
            assertThat(n).as("moved in one step, asked for %d", ask).isBetween(0L, ask);
            moved += n;
        }
    }
}
