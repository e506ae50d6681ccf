package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.Copier;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
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
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TruncatedSourceTest {
    private static final long SEED = Seeds.announce(TruncatedSourceTest.class);

    private static final int SIZE = 4 << 20;
    private static final int HALF = SIZE / 2;

    @TempDir
    Path dir;

    static Stream<Arguments> strategies() {
        return Stream.of(
                // 10 MiB/s: steps of 1 MiB, and about 0.2 s until the cut is reached.
                Arguments.of("transferTo", TransferOptions.builder().strategy("transferTo").rateLimit(10 << 20), SEED),
                Arguments.of("mmap", TransferOptions.builder().strategy("mmap").mappedWindow(64 << 10), SEED),
                Arguments.of("buffered", TransferOptions.builder().strategy("buffered").bufferSize(64 << 10), SEED));
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
            Copier copier = Transfers.with(options.listener(listener).build());

            try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
                TruncatedSourceException truncated;
                try (SocketChannel channel = receiver.connectChannel()) {
                    truncated = catchThrowableOfType(TruncatedSourceException.class,
                            () -> copier.copy(file, (WritableByteChannel) channel));
                    assertThat(channel.isOpen()).as("socket still open").isTrue();
                }

                assertThat(truncated).as("TruncatedSourceException").isNotNull();
                assertThat(truncatedAt.get()).as("bytes moved before the cut (bounded by the step size)")
                        .isPositive().isLessThanOrEqualTo(HALF);
                assertThat(truncated.expectedSize()).as("expected size").isEqualTo(SIZE);
                assertThat(truncated.actualSize()).as("actual size").isEqualTo(HALF);
                assertThat(truncated.bytesTransferred()).as("bytes transferred")
                        .isGreaterThanOrEqualTo(truncatedAt.get())
                        .isLessThanOrEqualTo(HALF);
                assertThat(truncated.getMessage()).contains(String.valueOf(SIZE), String.valueOf(HALF));
                assertThat(listener.failure()).as("onFailure").isSameAs(truncated);
                assertThat(listener.strategy()).isEqualTo(strategy);

                // The socket is closed now: the peer has everything the sender counted, and only that.
                LoopbackReceiver.Received received = receiver.received();
                int counted = (int) truncated.bytesTransferred();
                assertThat(received.bytes()).as("bytes the peer received").isEqualTo(counted);
                assertThat(received.crc32c()).as("CRC32C of the file's first " + counted + " bytes")
                        .isEqualTo(TestFiles.crc32c(content, 0, counted));
            }
        }
    }
}
