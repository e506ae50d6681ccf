package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link Transfer} handle dropped part-way without {@code close()} gives back what it held once
 * unreachable: its mapped window (a shared arena on Java 22+, which the GC never closes), and the
 * duplicate of the socket's descriptor that a native send works on, which kept the connection open
 * after its owner's close. In both of this module's runs; the native send only in the one with
 * native access, where {@code auto} takes it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DroppedHandleTest {
    private static final long SEED = Seeds.announce(DroppedHandleTest.class);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"auto", "mmap", "buffered"})
    void droppedPartWay_releasesWhatItHeld_andThePeerSeesTheEnd(String strategy) throws Exception {
        assumeTrue(ProcSelf.available(), "needs /proc/self (Linux)");
        Path file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(8 << 20, SEED));
        TransferOptions.Builder options = TransferOptions.builder().mappedWindow(1 << 20);
        if (!strategy.equals("auto")) {
            options.strategy(strategy);
        }
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER)) {
            SocketChannel channel = receiver.connectChannel();
            channel.configureBlocking(false);
            long moved = advanceUntilFullThenDrop(file, channel, options.build());
            assertThat(moved)
                    .as("moved before the socket was full")
                    .isPositive()
                    .isLessThan(8 << 20);
            channel.close();
            receiver.openGate();

            assertThat(awaitWithGc(receiver::ended)).as("the peer saw the end").isTrue();
            assertThat(receiver.received().bytes()).isEqualTo(moved);
            assertThat(awaitWithGc(() -> mappings() == 0))
                    .as("no mapping of the file left")
                    .isTrue();
        }
    }

    /** Opens a handle and advances it until the socket is full; the handle is unreachable once this returns. */
    private static long advanceUntilFullThenDrop(Path file, SocketChannel channel, TransferOptions options)
            throws Exception {
        Transfer transfer = Transfers.open(file, channel, options);
        long moved = 0;
        for (int i = 0; i < 1000; i++) {
            long n = transfer.advance();
            if (n == 0) {
                break;
            }
            moved += n;
        }
        assertThat(transfer.isDone()).isFalse();
        return moved;
    }

    private long mappings() {
        try {
            return ProcSelf.mappingsUnder(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls {@code condition} with a GC between looks, for up to 30 s. */
    private static boolean awaitWithGc(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling interval, not synchronisation
        }
        return true;
    }
}
