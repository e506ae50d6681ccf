package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A file cut to half its size while it is being sent to a blocking loopback socket (from the
 * first progress callback, through a second channel on the file). The copy must fail with
 * {@link TruncatedSourceException} instead of spinning, and its count must be exactly what the
 * peer received.
 *
 * <p>What is guaranteed: bytes counted before the cut stay counted, and after the cut nothing
 * beyond the new end can be read, so {@code firstProgress <= bytesTransferred <= max(firstProgress,
 * half)}. Each case bounds its step size well below half the file, so the first step cannot already
 * pass the cut, which gives {@code bytesTransferred <= half}. A blocking {@code sendfile} call only
 * returns once it has sent everything asked for, so for {@code transferTo} the step is bounded with
 * a rate limit (steps of a tenth of a second's worth); for mmap with the window, for buffered with
 * the buffer.
 *
 * <p>Also here: a file cut under a mapped window that is being written (the pages fault), and a
 * file that grows mid-transfer (exactly the starting size is sent). No descriptor is left open.
 *
 * <p>The copy runs on a platform thread here, on a virtual thread in {@link VirtualThreadTruncatedSourceTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TruncatedSourceTest {
    private static final long SEED = Seeds.announce(TruncatedSourceTest.class);

    private static final int SIZE = 4 << 20;
    private static final int HALF = SIZE / 2;

    @TempDir
    Path dir;

    @RegisterExtension
    final NoDescriptorLeft descriptors = new NoDescriptorLeft(threads());

    /** The kind of thread that copies. */
    ThreadKind threads() {
        return ThreadKind.PLATFORM;
    }

    static Stream<Arguments> strategies() {
        return Stream.of(
                // The default selection (transferTo here), with the same rate limit.
                Arguments.of("auto", TransferOptions.builder().rateLimit(10 << 20), SEED),
                // 10 MiB/s: steps of 1 MiB, and about 0.2 s until the cut is reached.
                Arguments.of(
                        "transferTo",
                        TransferOptions.builder().strategy("transferTo").rateLimit(10 << 20),
                        SEED),
                Arguments.of("mmap", TransferOptions.builder().strategy("mmap").mappedWindow(64 << 10), SEED),
                Arguments.of(
                        "buffered",
                        TransferOptions.builder().strategy("buffered").bufferSize(64 << 10),
                        SEED));
    }

    @ParameterizedTest(name = "{0} (seed {2})")
    @MethodSource("strategies")
    void copy_fileTruncatedMidTransfer(String strategy, TransferOptions.Builder options, long seed) throws Exception {
        byte[] content = TestFiles.randomBytes(SIZE, Seeds.derive(seed, strategy.hashCode()));
        Path file = TestFiles.write(dir.resolve("source"), content);
        AtomicLong truncatedAt = new AtomicLong(-1);
        try (FileChannel cutter = FileChannel.open(file, StandardOpenOption.WRITE)) {
            RecordingListener listener = new RecordingListener(bytesSoFar -> {
                if (truncatedAt.get() < 0) {
                    truncatedAt.set(bytesSoFar);
                    try {
                        cutter.truncate(HALF);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            TransferOptions copier = options.listener(listener).build();

            try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
                TruncatedSourceException truncated;
                try (SocketChannel channel = receiver.connectChannel()) {
                    truncated = catchThrowableOfType(
                            TruncatedSourceException.class,
                            () -> threads().call(() -> Transfers.copy(file, (WritableByteChannel) channel, copier)));
                    assertThat(channel.isOpen()).as("socket still open").isTrue();
                }

                assertThat(truncated).as("TruncatedSourceException").isNotNull();
                assertThat(truncatedAt.get())
                        .as("bytes moved before the cut (bounded by the step size)")
                        .isPositive()
                        .isLessThanOrEqualTo(HALF);
                assertThat(truncated.expectedSize()).as("expected size").isEqualTo(SIZE);
                assertThat(truncated.actualSize()).as("actual size").isEqualTo(HALF);
                assertThat(truncated.bytesTransferred())
                        .as("bytes transferred")
                        .isGreaterThanOrEqualTo(truncatedAt.get())
                        .isLessThanOrEqualTo(HALF);
                assertThat(truncated.getMessage()).contains(String.valueOf(SIZE), String.valueOf(HALF));
                assertThat(listener.failure()).as("onFailure").isSameAs(truncated);
                assertThat(listener.strategy())
                        .isEqualTo(strategy.equals("auto") ? TestFiles.DEFAULT_FILE_TO_SOCKET : strategy);

                // The socket is closed now: the peer has everything the sender counted, and only that.
                LoopbackReceiver.Received received = receiver.received();
                int counted = (int) truncated.bytesTransferred();
                assertThat(received.bytes()).as("bytes the peer received").isEqualTo(counted);
                assertThat(received.crc32c())
                        .as("CRC32C of the file's first " + counted + " bytes")
                        .isEqualTo(TestFiles.crc32c(content, 0, counted));
            }
        }
    }

    /**
     * The file is cut while the window that covers it all is mapped and being written: the lost
     * pages fault. Into a stream the JDK copies from the mapping in Java (SIGBUS becomes an
     * {@code InternalError}); into a non-blocking socket the kernel reads it ({@code EFAULT}). Either
     * way a {@link TruncatedSourceException}, never an {@code InternalError} or a crash. Everything
     * before the cut is still there, so at least that much is sent, and the bytes are the file's.
     * Past the cut a copy in Java may pass on what a faulting read left in its chunk (MappedStrategy:
     * the tail is not to be trusted), so into a stream only the bytes before the cut are compared.
     */
    @ParameterizedTest(name = "mmap into a {0} (seed {1})")
    @MethodSource("mappedTargets")
    void copy_mappedWindowTruncatedWhileWritten(String target, long seed) throws Exception {
        byte[] content = TestFiles.randomBytes(SIZE, Seeds.derive(seed, target.hashCode()));
        Path file = TestFiles.write(dir.resolve("source"), content);
        AtomicLong truncatedAt = new AtomicLong(-1);
        try (FileChannel cutter = FileChannel.open(file, StandardOpenOption.WRITE)) {
            RecordingListener listener = new RecordingListener(bytesSoFar -> {
                if (truncatedAt.compareAndSet(-1, bytesSoFar)) {
                    try {
                        cutter.truncate(HALF);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            TransferOptions copier = TransferOptions.builder()
                    .strategy("mmap")
                    .mappedWindow(SIZE)
                    .listener(listener)
                    .build();

            TruncatedSourceException truncated;
            long receivedBytes;
            long receivedCrc = 0;
            byte[] streamed = null;
            if (target.equals("stream")) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                truncated = catchThrowableOfType(
                        TruncatedSourceException.class, () -> threads().call(() -> Transfers.copy(file, out, copier)));
                streamed = out.toByteArray();
                receivedBytes = streamed.length;
            } else {
                try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
                    try (SocketChannel channel = receiver.connectChannel()) {
                        channel.configureBlocking(false);
                        truncated = catchThrowableOfType(
                                TruncatedSourceException.class,
                                () -> threads()
                                        .call(() -> Transfers.copy(file, (WritableByteChannel) channel, copier)));
                    }
                    LoopbackReceiver.Received received = receiver.received();
                    receivedBytes = received.bytes();
                    receivedCrc = received.crc32c();
                }
            }

            assertThat(truncated).as("TruncatedSourceException").isNotNull();
            assertThat(truncatedAt.get())
                    .as("cut after the first step")
                    .isPositive()
                    .isLessThan(HALF);
            assertThat(truncated.actualSize()).isEqualTo(HALF);
            // A stream takes every write, so the copy runs into the cut; a full non-blocking socket
            // makes the engine look at the file's size, and it stops there, counting what was sent.
            assertThat(truncated.bytesTransferred())
                    .as("bytes transferred")
                    .isGreaterThanOrEqualTo(target.equals("stream") ? HALF : truncatedAt.get())
                    .isLessThan(SIZE);
            assertThat(receivedBytes).as("bytes the target got").isEqualTo(truncated.bytesTransferred());
            int counted = (int) truncated.bytesTransferred();
            if (streamed != null) {
                int trusted = Math.min(counted, HALF);
                assertThat(Arrays.mismatch(Arrays.copyOf(streamed, trusted), Arrays.copyOf(content, trusted)))
                        .as("first of the %d bytes before the cut that differs from the file's", trusted)
                        .isEqualTo(-1);
            } else {
                // The file's bytes up to the cut; past it, the zeros the kernel reads there (see MappedStrategy).
                byte[] expected = Arrays.copyOf(content, counted);
                if (counted > HALF) {
                    Arrays.fill(expected, HALF, counted, (byte) 0);
                }
                assertThat(receivedCrc).as("CRC32C of what the target got").isEqualTo(TestFiles.crc32c(expected));
            }
            assertThat(listener.failure()).as("onFailure").isSameAs(truncated);
        }
    }

    static Stream<Arguments> mappedTargets() {
        return Stream.of(Arguments.of("stream", SEED), Arguments.of("non-blocking socket", SEED));
    }

    /**
     * The file grows while it is sent: exactly the size it had when the copy started arrives, and
     * those bytes are the file's, whatever the strategy.
     */
    @ParameterizedTest(name = "{0} (seed {2})")
    @MethodSource("strategies")
    void copy_fileGrowsMidTransfer(String strategy, TransferOptions.Builder options, long seed) throws Exception {
        byte[] content = TestFiles.randomBytes(SIZE, Seeds.derive(seed, ~strategy.hashCode()));
        Path file = TestFiles.write(dir.resolve("source"), content);
        AtomicLong grownAt = new AtomicLong(-1);
        try (FileChannel appender = FileChannel.open(file, StandardOpenOption.APPEND)) {
            RecordingListener listener = new RecordingListener(bytesSoFar -> {
                if (grownAt.compareAndSet(-1, bytesSoFar)) {
                    try {
                        appender.write(ByteBuffer.wrap(TestFiles.randomBytes(SIZE, bytesSoFar)));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            TransferOptions copier = options.listener(listener).build();
            long sent;
            LoopbackReceiver.Received received;
            try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
                try (SocketChannel channel = receiver.connectChannel()) {
                    sent = threads().call(() -> Transfers.copy(file, (WritableByteChannel) channel, copier));
                }
                received = receiver.received();
            }

            assertThat(grownAt.get())
                    .as("grown during the transfer")
                    .isPositive()
                    .isLessThan(SIZE);
            assertThat(Files.size(file)).as("the file's size now").isEqualTo(2L * SIZE);
            assertThat(sent).as("returned count: the size at the start").isEqualTo(SIZE);
            assertThat(received.bytes()).as("bytes the peer received").isEqualTo(SIZE);
            assertThat(received.crc32c()).as("CRC32C of what the peer received").isEqualTo(TestFiles.crc32c(content));
            assertThat(listener.expectedBytes()).isEqualTo(SIZE);
        }
    }
}
