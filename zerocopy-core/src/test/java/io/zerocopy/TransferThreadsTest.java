package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link Transfer} and a second thread: an advance while another runs is refused, and a close
 * from another thread never releases what a running step reads (a mapping, a pooled buffer). The
 * target is the caller's own channel, which copies the bytes out in Java while the test holds it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransferThreadsTest {
    private static final int SIZE = 4 << 20;

    @TempDir
    Path dir;

    /** Threads of the test's own: the common pool may have one, which the held step would take. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** A channel whose first write waits for {@link #release} before it reads the bytes it was given. */
    private static final class HeldTarget implements WritableByteChannel {
        final CountDownLatch inWrite = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean writeReturned = new AtomicBoolean();
        final AtomicReference<byte[]> firstWrite = new AtomicReference<>();
        final ByteArrayOutputStream written = new ByteArrayOutputStream();

        @Override
        public int write(ByteBuffer src) {
            byte[] bytes = new byte[src.remaining()];
            boolean first = firstWrite.get() == null;
            if (first) {
                inWrite.countDown();
                await(release);
            }
            src.get(bytes); // where the step's buffer was released under the first, this crashes or throws
            synchronized (written) {
                written.write(bytes, 0, bytes.length);
            }
            if (first) {
                firstWrite.set(bytes);
                writeReturned.set(true);
            }
            return bytes.length;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS))
                    .as("latch within 10 s")
                    .isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Advances {@code transfer} on a thread of the test's own; returns once its first write is held. */
    private Future<Long> advanceUntilHeld(Transfer transfer, HeldTarget target) {
        Future<Long> advancing = threads.submit(transfer::advance);
        await(target.inWrite);
        return advancing;
    }

    private byte[] data(long seed) {
        byte[] bytes = new byte[SIZE];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @ParameterizedTest
    @ValueSource(strings = {MappedStrategy.NAME, BufferedStrategy.NAME})
    void close_fromAnotherThreadWhileAStepRuns_endsTheTransferAsTheStepReturns(String strategy) throws Exception {
        byte[] data = data(1);
        Path path = Files.write(dir.resolve("source"), data);
        HeldTarget target = new HeldTarget();
        AtomicBoolean heardWhileInWrite = new AtomicBoolean();
        TransferListener listener = new TransferListener() {
            @Override
            public void onFailure(TransferException failure) {
                heardWhileInWrite.set(!target.writeReturned.get());
            }
        };
        Transfer transfer = Transfers.open(
                path,
                target,
                TransferOptions.builder()
                        .strategy(strategy)
                        .listener(listener)
                        .bufferSize(64 * 1024)
                        .mappedWindow(1 << 20)
                        .build());
        Future<Long> advancing = advanceUntilHeld(transfer, target);

        threads.submit(transfer::close).get(5, TimeUnit.SECONDS); // returns while the step is held
        assertThat(advancing).as("the step still held").isNotDone();
        target.release.countDown();
        long moved = advancing.get(10, TimeUnit.SECONDS);

        byte[] first = target.firstWrite.get();
        assertThat(first).as("the held write's bytes").isEqualTo(Arrays.copyOf(data, first.length));
        assertThat(moved).as("the step's bytes, and no step after the close").isEqualTo(first.length);
        assertThat(heardWhileInWrite).as("onFailure heard while the step ran").isFalse();
        assertThat(transfer.isDone()).isFalse();
        assertThatThrownBy(transfer::advance).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {MappedStrategy.NAME, BufferedStrategy.NAME})
    void advance_whileAnotherThreadAdvances_isRefused(String strategy) throws Exception {
        byte[] data = data(2);
        Path path = Files.write(dir.resolve("source"), data);
        HeldTarget target = new HeldTarget();
        Transfer transfer = Transfers.open(
                path, target, TransferOptions.builder().strategy(strategy).build());
        Future<Long> advancing = advanceUntilHeld(transfer, target);

        assertThatThrownBy(transfer::advance)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("another thread");
        target.release.countDown();
        long moved = advancing.get(10, TimeUnit.SECONDS);
        while (!transfer.isDone()) {
            moved += transfer.advance(); // the refused call changed nothing: this thread may go on
        }
        assertThat(moved).isEqualTo(SIZE).isEqualTo(transfer.bytesTransferred());
        assertThat(target.written.toByteArray()).isEqualTo(data);
    }
}
