package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.testing.ListenerOrder;
import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files sent over real loopback connections with small socket buffers, for every built-in strategy
 * that can read a file (forced) and for automatic selection, to every kind of socket target the
 * API takes. The receiver's byte count and CRC32C must match the file.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackTransferTest {
    private static final long SEED = Seeds.announce(LoopbackTransferTest.class);

    @TempDir
    static Path dir;

    /** Source file and its CRC32C, by size. */
    private static final Map<Long, Path> FILES = new HashMap<>();

    private static final Map<Long, Long> CRCS = new HashMap<>();

    /** How the copy is configured: automatic selection or one strategy forced. */
    enum Mode {
        AUTO(null),
        TRANSFER_TO("transferTo"),
        MMAP("mmap"),
        BUFFERED("buffered");

        final String forced;

        Mode(String forced) {
            this.forced = forced;
        }
    }

    /** The socket targets the API accepts. */
    enum Target {
        /** {@code copy(Path, WritableByteChannel)} with a blocking {@code SocketChannel}. */
        BLOCKING_CHANNEL,
        /** The same with the channel in non-blocking mode: the engine must wait with a selector. */
        NON_BLOCKING_CHANNEL,
        /** {@code copy(Path, OutputStream)} with the stream of a {@code SocketChannel}'s socket. */
        CHANNEL_SOCKET,
        /** {@code copy(Path, OutputStream)} with the stream of a plain {@code java.net.Socket}. */
        PLAIN_SOCKET,
        /** {@code copy(Path, OutputStream)} with a plain socket's output stream. */
        SOCKET_STREAM
    }

    @BeforeAll
    static void createFiles() throws IOException {
        for (long size : TestFiles.SIZES) {
            byte[] content = TestFiles.randomBytes((int) size, Seeds.derive(SEED, size));
            FILES.put(size, TestFiles.write(dir.resolve("source-" + size), content));
            CRCS.put(size, TestFiles.crc32c(content));
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (Target target : Target.values()) {
                for (long size : TestFiles.SIZES) {
                    cases.add(Arguments.of(mode, target, size, SEED));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {2} bytes to {1} (seed {3})")
    @MethodSource("cases")
    void copy_fileToLoopbackSocket(Mode mode, Target target, long size, long seed) throws Exception {
        TransferListener listener = mock(TransferListener.class);
        TransferOptions options = TransferOptions.builder()
                .strategy(mode.forced)
                .listener(listener)
                .build();
        Path file = FILES.get(size);

        long sent;
        try (LoopbackReceiver receiver = LoopbackReceiver.draining(LoopbackReceiver.SMALL_BUFFER)) {
            switch (target) {
                case BLOCKING_CHANNEL -> {
                    try (SocketChannel channel = receiver.connectChannel()) {
                        sent = Transfers.copy(file, (WritableByteChannel) channel, options);
                        assertThat(channel.isBlocking()).as("still blocking").isTrue();
                        assertThat(channel.isOpen()).as("still open").isTrue();
                    }
                }
                case NON_BLOCKING_CHANNEL -> {
                    try (SocketChannel channel = receiver.connectChannel()) {
                        channel.configureBlocking(false);
                        sent = Transfers.copy(file, (WritableByteChannel) channel, options);
                        assertThat(channel.isBlocking())
                                .as("still non-blocking")
                                .isFalse();
                        assertThat(channel.isRegistered())
                                .as("left registered with a selector")
                                .isFalse();
                        assertThat(channel.isOpen()).as("still open").isTrue();
                    }
                }
                case CHANNEL_SOCKET -> {
                    try (SocketChannel channel = receiver.connectChannel()) {
                        sent = Transfers.copy(file, channel.socket().getOutputStream(), options);
                        assertThat(channel.isOpen()).as("still open").isTrue();
                        assertThat(channel.socket().isOutputShutdown())
                                .as("output shut down")
                                .isFalse();
                    }
                }
                case PLAIN_SOCKET -> {
                    try (Socket socket = receiver.connectSocket()) {
                        assertThat(socket.getChannel())
                                .as("a socket without a channel")
                                .isNull();
                        sent = Transfers.copy(file, socket.getOutputStream(), options);
                        assertThat(socket.isClosed()).as("closed").isFalse();
                        assertThat(socket.isOutputShutdown())
                                .as("output shut down")
                                .isFalse();
                    }
                }
                case SOCKET_STREAM -> {
                    try (Socket socket = receiver.connectSocket()) {
                        sent = Transfers.copy(file, socket.getOutputStream(), options);
                        assertThat(socket.isClosed()).as("closed").isFalse();
                    }
                }
                default -> throw new AssertionError(target);
            }
            LoopbackReceiver.Received received = receiver.received();
            assertThat(sent).as("returned count").isEqualTo(size);
            assertThat(received.bytes()).as("bytes the peer received").isEqualTo(size);
            assertThat(received.crc32c()).as("CRC32C of what the peer received").isEqualTo(CRCS.get(size));
        }

        String expectedStrategy = mode.forced != null
                ? mode.forced
                // to a peer on this host, blocking or not: sendfile when small, else a buffer; a stream: a buffer
                : target == Target.CHANNEL_SOCKET || target == Target.PLAIN_SOCKET || target == Target.SOCKET_STREAM
                        ? "buffered"
                        : TestFiles.defaultFileToSocket(size);
        ListenerOrder.verifyCompleted(listener, expectedStrategy, size, size);
    }
}
