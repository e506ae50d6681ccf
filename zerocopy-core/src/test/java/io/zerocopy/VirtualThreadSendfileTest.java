package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transferTo} from a virtual thread to a blocking socket, which the JDK runs non-blocking
 * underneath: a full socket parks the virtual thread in the socket's own write (its state is
 * {@code WAITING}, with no timeout), never blocks its carrier in {@code sendfile} (the thread would
 * stay {@code RUNNABLE}) and never polls (it would be {@code TIMED_WAITING} between retries), also
 * when the transfer is the socket's first I/O. The failure contract holds on this path: exact
 * bytes, truncation, interrupts, and nothing of the caller's closed. Java 21 and later.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadSendfileTest {
    private static final int SIZE = 4 << 20;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;

    private byte[] data;
    private Path source;
    /** Starts each task on a new virtual thread and remembers it. */
    private Executor virtual;

    private final AtomicReference<Thread> copyingThread = new AtomicReference<>();

    @BeforeEach
    void setUp() throws Exception {
        data = new byte[SIZE];
        new Random(SIZE).nextBytes(data);
        source = Files.write(dir.resolve("source"), data);
        ThreadFactory factory = (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                .getMethod("factory")
                .invoke(Thread.class.getMethod("ofVirtual").invoke(null));
        virtual = r -> {
            Thread t = factory.newThread(r);
            copyingThread.set(t);
            t.start();
        };
    }

    private static final TransferOptions FORCED =
            TransferOptions.builder().strategy("transferTo").build();

    @Test
    void copy_firstIoOfTheSocket_parksInItsWriteAndDeliversEveryByte() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open()) {
            // the socket's first I/O on this virtual thread is the transfer itself
            CompletableFuture<TransferResult> copy =
                    onVirtualThread(() -> Transfers.copyAsync(source, pair.sender, Runnable::run, FORCED)
                            .get());

            awaitParked();
            byte[] received = LoopbackPair.readExactly(pair.receiver, SIZE);

            TransferResult result = copy.get(20, TimeUnit.SECONDS);
            assertThat(result.bytesTransferred()).isEqualTo(SIZE);
            assertThat(result.strategy()).isEqualTo(TransferToStrategy.NAME);
            assertThat(result.reason()).contains("parks the thread");
            ByteArrays.assertSameBytes("received", received, data);
            assertThat(pair.sender.isOpen())
                    .as("the caller's socket stays open")
                    .isTrue();
        }
    }

    @Test
    void copySlice_parked_leavesTheCallersChannelsOpenAndPositioned() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(source, StandardOpenOption.READ)) {
            file.position(123);
            CompletableFuture<Long> copy =
                    onVirtualThread(() -> Transfers.copy(file, 1000, SIZE - 1000, pair.sender, FORCED));

            awaitParked();
            byte[] received = LoopbackPair.readExactly(pair.receiver, SIZE - 1000);

            assertThat(copy.get(20, TimeUnit.SECONDS)).isEqualTo(SIZE - 1000L);
            ByteArrays.assertSameBytes("received", received, Arrays.copyOfRange(data, 1000, SIZE));
            assertThat(file.isOpen()).isTrue();
            assertThat(file.position()).as("the source's position").isEqualTo(123);
            assertThat(pair.sender.isOpen()).isTrue();
        }
    }

    @Test
    void copy_fileTruncatedWhileParked_failsWithTheExactCount() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<Long> copy = onVirtualThread(() -> Transfers.copy(source, pair.sender, FORCED));

            awaitParked();
            try (FileChannel cut = FileChannel.open(source, StandardOpenOption.WRITE)) {
                cut.truncate(SIZE / 2);
            }
            CompletableFuture<byte[]> received = pair.drainInBackground();

            Exception e = assertThrows(Exception.class, () -> copy.get(20, TimeUnit.SECONDS));
            assertThat(e.getCause()).hasCauseInstanceOf(TruncatedSourceException.class);
            TruncatedSourceException truncated =
                    (TruncatedSourceException) e.getCause().getCause();
            pair.sender.shutdownOutput();
            byte[] got = received.get(20, TimeUnit.SECONDS);
            assertThat((long) got.length).as("bytes the receiver got").isEqualTo(truncated.bytesTransferred());
            ByteArrays.assertSameBytes("received", got, Arrays.copyOf(data, got.length));
        }
    }

    @Test
    void copy_interruptedWhileParked_failsWithClosedByInterrupt() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<Long> copy = onVirtualThread(() -> Transfers.copy(source, pair.sender, FORCED));

            awaitParked();
            copyingThread.get().interrupt();

            Exception e = assertThrows(Exception.class, () -> copy.get(20, TimeUnit.SECONDS));
            assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
            TransferException failure = (TransferException) e.getCause().getCause();
            assertThat(failure).hasCauseInstanceOf(ClosedByInterruptException.class);
            assertThat(failure.bytesTransferred()).isBetween(1L, (long) SIZE - 1);
            assertThat(pair.sender.isOpen())
                    .as("the JDK closes the socket the interrupted write was on")
                    .isFalse();
        }
    }

    /** Runs {@code copy} on a new virtual thread; a failure reaches the future as the cause of an {@code IllegalStateException}. */
    private <T> CompletableFuture<T> onVirtualThread(Callable<T> copy) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return copy.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                virtual);
    }

    /**
     * Waits until the copying virtual thread is parked without a timeout: in the socket's write,
     * not in {@code sendfile} on its carrier (it would be {@code RUNNABLE}) and not polling (it
     * would be {@code TIMED_WAITING}). The receiver has not read, so the socket is full.
     */
    private void awaitParked() {
        long start = System.nanoTime();
        Thread.State state = null;
        int waitingInARow = 0;
        while (System.nanoTime() - start < DEADLINE_NANOS) {
            Thread t = copyingThread.get();
            state = t == null ? null : t.getState();
            waitingInARow = state == Thread.State.WAITING ? waitingInARow + 1 : 0;
            if (waitingInARow == 3) {
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new AssertionError("the copying virtual thread never parked without a timeout; last state: " + state);
    }
}
