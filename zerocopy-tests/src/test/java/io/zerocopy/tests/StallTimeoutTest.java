package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.Copier;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A non-blocking socket whose peer accepts the connection and never reads: once the socket
 * buffers are full nothing moves, and the copy must give up after the stall timeout with a
 * {@link TransferTimeoutException} that counts exactly the bytes the peer can still receive.
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

    @BeforeAll
    static void createFile() throws Exception {
        content = TestFiles.randomBytes(SIZE, SEED);
        file = TestFiles.write(dir.resolve("source"), content);
    }

    static Stream<Arguments> strategies() {
        return Stream.of("transferTo", "mmap", "buffered").map(name -> Arguments.of(name, SEED));
    }

    @ParameterizedTest(name = "{0} (seed {1})")
    @MethodSource("strategies")
    void copy_peerNeverReads(String strategy, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        Copier copier = Transfers.with(TransferOptions.builder()
                .strategy(strategy).stallTimeout(STALL).listener(listener).build());

        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER)) {
            TransferTimeoutException timeout;
            try (SocketChannel channel = receiver.connectChannel()) {
                channel.configureBlocking(false);

                timeout = catchThrowableOfType(TransferTimeoutException.class,
                        () -> copier.copy(file, (WritableByteChannel) channel));

                assertThat(timeout).as("TransferTimeoutException").isNotNull();
                assertThat(timeout.bytesTransferred()).as("bytes transferred").isPositive().isLessThan(SIZE);
                assertThat(timeout.stallTimeout()).isEqualTo(STALL);
                assertThat(channel.isOpen()).as("channel still open").isTrue();
                assertThat(channel.isBlocking()).as("still non-blocking").isFalse();
                assertThat(channel.isRegistered()).as("left registered with a selector").isFalse();
                assertThat(listener.failure()).as("onFailure").isSameAs(timeout);
                assertThat(listener.lastProgress()).as("last progress").isEqualTo(timeout.bytesTransferred());
            }
            // Closing sends what the kernel accepted, then end of stream: exactly the counted bytes.
            receiver.openGate();
            LoopbackReceiver.Received received = receiver.received();
            int counted = (int) timeout.bytesTransferred();
            assertThat(received.bytes()).as("bytes the peer got after the stall").isEqualTo(counted);
            assertThat(received.crc32c()).as("CRC32C of those bytes: the file's first " + counted)
                    .isEqualTo(TestFiles.crc32c(content, 0, counted));
        }
        assertThat(listener.strategy()).isEqualTo(strategy);
    }
}
