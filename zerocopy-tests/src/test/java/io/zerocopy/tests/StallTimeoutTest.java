package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A non-blocking socket whose peer accepts the connection and never reads: once the socket
 * buffers are full nothing moves, and the copy must give up after the stall timeout with a
 * {@link TransferTimeoutException} that counts exactly the bytes the peer can still receive, and
 * wait for it without spinning (the copying thread's CPU time stays under half the wall time). A
 * target that keeps taking bytes, however slowly, is no stall. No descriptor is left open.
 *
 * <p>The copy runs on a platform thread here, on a virtual thread in {@link VirtualThreadStallTimeoutTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StallTimeoutTest {
    private static final long SEED = Seeds.announce(StallTimeoutTest.class);

    /** Far more than the 16 KiB send and receive buffers can hold. */
    private static final int SIZE = 8 << 20;

    private static final Duration STALL = Duration.ofMillis(300);

    @TempDir
    static Path dir;

    private static byte[] content;
    private static Path file;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(threads());

    /** The kind of thread that copies. */
    ThreadKind threads() {
        return ThreadKind.PLATFORM;
    }

    /** How a copy that timed out ended, with the CPU time its thread used and the wall time it took. */
    record Timed(TransferTimeoutException timeout, long cpuNanos, long wallNanos) {}

    @BeforeAll
    static void createFile() throws Exception {
        content = TestFiles.randomBytes(SIZE, SEED);
        file = TestFiles.write(dir.resolve("source"), content);
    }

    static Stream<Arguments> strategies() {
        return Stream.of("auto", "transferTo", "mmap", "buffered").map(name -> Arguments.of(name, SEED));
    }

    private static TransferOptions copier(String strategy, RecordingListener listener) {
        TransferOptions.Builder options =
                TransferOptions.builder().stallTimeout(STALL).listener(listener);
        return (strategy.equals("auto") ? options : options.strategy(strategy)).build();
    }

    /**
     * A target that keeps taking bytes, slowly, makes the transfer last several stall timeouts: it
     * must complete byte-exact, since every bit of progress restarts the stall clock.
     *
     * <p>The target is a {@link PacedTarget}, not a socket read by a thread of the test: a reader
     * thread that a busy machine leaves unscheduled for a stall timeout is a real stall, which a
     * test cannot rule out. The target decides at each write whether to take bytes, and it takes
     * them at any write a full {@code STALL} after the first one it refused: by then half a
     * {@code STALL} has passed since it last took any. So only a stall clock that progress does not
     * restart, or one that is read later than the write it times, can end this copy early.
     */
    @ParameterizedTest(name = "{0} (seed {1})")
    @MethodSource("strategies")
    void copy_slowTargetThatKeepsTaking_completes(String strategy, long seed) throws Exception {
        int takes = 8; // each at least STALL / 2 after the one before: the copy lasts 3.5 STALLs or more
        int size = takes * PacedTarget.MOST_PER_TAKE;
        RecordingListener listener = new RecordingListener();
        PacedTarget target = new PacedTarget(STALL.dividedBy(2));
        long sent;
        try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            sent = threads().call(() -> Transfers.copy(source, 0, size, target, copier(strategy, listener)));
        }

        assertThat(sent).as("returned count").isEqualTo(size);
        assertThat(target.bytes()).as("bytes the target took").isEqualTo(size);
        assertThat(target.crc32c())
                .as("CRC32C of the file's first " + size + " bytes")
                .isEqualTo(TestFiles.crc32c(content, 0, size));
        assertThat(target.takes()).as("writes that took bytes").isEqualTo(takes);
        assertThat(target.refusals())
                .as("writes refused: the stall clock ran between takes")
                .isPositive();
        if (!strategy.equals("auto")) {
            assertThat(listener.strategy()).isEqualTo(strategy);
        }
    }

    /**
     * The stall clock runs to the last write that took nothing, not to when the copying thread got
     * round to reading the clock after it. Here every write that takes nothing lasts a whole
     * {@code STALL}, as if the thread had been paused right after it; the next write, at most half a
     * {@code STALL} later, takes nothing again, and the one after that takes bytes. Timed from the
     * writes, no stall reaches {@code STALL}; timed from the end of the second refusal, it would.
     */
    @Test
    void copy_threadPausedAfterARefusal_stallTimedFromTheWrite() throws Exception {
        int takes = 3;
        int size = takes * PacedTarget.MOST_PER_TAKE;
        PacedTarget target = new PacedTarget(STALL.multipliedBy(3).dividedBy(2), STALL);
        long sent;
        try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            sent = threads()
                    .call(() -> Transfers.copy(source, 0, size, target, copier("buffered", new RecordingListener())));
        }

        assertThat(sent).as("returned count").isEqualTo(size);
        assertThat(target.crc32c())
                .as("CRC32C of the file's first " + size + " bytes")
                .isEqualTo(TestFiles.crc32c(content, 0, size));
        assertThat(target.refusals()).as("writes refused").isGreaterThanOrEqualTo(takes - 1);
    }

    @ParameterizedTest(name = "{0} (seed {1})")
    @MethodSource("strategies")
    void copy_peerNeverReads(String strategy, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        TransferOptions copier = copier(strategy, listener);

        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER)) {
            TransferTimeoutException timeout;
            try (SocketChannel channel = receiver.connectChannel()) {
                channel.configureBlocking(false);

                Timed copy = threads().call(() -> {
                    Thread copying = Thread.currentThread();
                    long cpuBefore = threads().cpuTimeNanos(copying);
                    long wallBefore = System.nanoTime();
                    TransferTimeoutException thrown = catchThrowableOfType(
                            TransferTimeoutException.class,
                            () -> Transfers.copy(file, (WritableByteChannel) channel, copier));
                    long cpu = threads().cpuTimeNanos(copying) - cpuBefore;
                    return new Timed(thrown, cpu, System.nanoTime() - wallBefore);
                });
                timeout = copy.timeout();
                long cpu = copy.cpuNanos();
                long wall = copy.wallNanos();

                // Waiting out the stall must not spin: a busy loop would use all of the wall time.
                assertThat(wall).as("time to the timeout").isGreaterThanOrEqualTo(STALL.toNanos());
                assertThat(cpu)
                        .as("CPU time of the copying thread over %d ms", TimeUnit.NANOSECONDS.toMillis(wall))
                        .isLessThan(wall / 2);

                assertThat(timeout).as("TransferTimeoutException").isNotNull();
                assertThat(timeout.bytesTransferred())
                        .as("bytes transferred")
                        .isPositive()
                        .isLessThan(SIZE);
                assertThat(timeout.stallTimeout()).isEqualTo(STALL);
                assertThat(channel.isOpen()).as("channel still open").isTrue();
                assertThat(channel.isBlocking()).as("still non-blocking").isFalse();
                assertThat(channel.isRegistered())
                        .as("left registered with a selector")
                        .isFalse();
                assertThat(listener.failure()).as("onFailure").isSameAs(timeout);
                assertThat(listener.lastProgress()).as("last progress").isEqualTo(timeout.bytesTransferred());
            }
            // Closing sends what the kernel accepted, then end of stream: exactly the counted bytes.
            receiver.openGate();
            LoopbackReceiver.Received received = receiver.received();
            int counted = (int) timeout.bytesTransferred();
            assertThat(received.bytes())
                    .as("bytes the peer got after the stall")
                    .isEqualTo(counted);
            assertThat(received.crc32c())
                    .as("CRC32C of those bytes: the file's first " + counted)
                    .isEqualTo(TestFiles.crc32c(content, 0, counted));
        }
        assertThat(listener.strategy())
                .isEqualTo(strategy.equals("auto") ? TestFiles.DEFAULT_FILE_TO_SOCKET : strategy);
    }
}
