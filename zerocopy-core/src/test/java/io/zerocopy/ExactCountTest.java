package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.verifyNoInteractions;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code copy(source, count, target)}: exactly {@code count} bytes and not one more, from a real
 * loopback socket whose peer has already sent what follows (the next request, the next record), into
 * a file and into a channel, with the default choice and with {@code transferFrom} forced; a peer
 * that ends early; and a file channel as the source.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExactCountTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0xE7AC7L);

    private static final int COUNT = (1 << 20) + 7;
    private static final int TRAILING = 1000;
    /** Where a file target's position is before the copy, so that "written at its position" shows. */
    private static final int TARGET_START = 10;

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    @BeforeAll
    static void printSeed() {
        System.out.println(ExactCountTest.class.getSimpleName() + ": seed " + SEED + " (replay with -Dzerocopy.seed="
                + SEED + ")");
    }

    private byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code bytes} into the pair's sender on another thread, then closes its output if {@code end}. */
    private static CompletableFuture<Void> send(LoopbackPair pair, byte[] bytes, boolean end) {
        return CompletableFuture.runAsync(() -> {
            try {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    pair.sender.write(buffer);
                }
                if (end) {
                    pair.sender.shutdownOutput();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static TransferOptions copier(String strategy, TransferListener listener) {
        TransferOptions.Builder options = TransferOptions.builder().listener(listener);
        if (!strategy.equals("auto")) {
            options.strategy(strategy);
        }
        return options.build();
    }

    /** A target and, once the copy is over, what it holds. */
    private interface Sink extends AutoCloseable {
        WritableByteChannel channel();

        byte[] written() throws IOException;

        @Override
        void close() throws IOException;
    }

    private Sink sink(String kind) throws IOException {
        if (kind.equals("file")) {
            FileChannel file = FileChannel.open(
                    dir.resolve("target"),
                    StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            file.position(TARGET_START);
            return new Sink() {
                @Override
                public WritableByteChannel channel() {
                    return file;
                }

                @Override
                public byte[] written() throws IOException {
                    byte[] all = Files.readAllBytes(dir.resolve("target"));
                    if (all.length == 0) {
                        assertThat(file.position())
                                .as("the target's position, nothing written")
                                .isEqualTo(TARGET_START);
                        return all;
                    }
                    assertThat(Arrays.copyOf(all, TARGET_START))
                            .as("bytes before the target's position")
                            .isEqualTo(new byte[TARGET_START]);
                    assertThat(file.position())
                            .as("the target's position after the copy")
                            .isEqualTo(all.length);
                    return Arrays.copyOfRange(all, TARGET_START, all.length);
                }

                @Override
                public void close() throws IOException {
                    file.close();
                }
            };
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel channel = Channels.newChannel(out);
        return new Sink() {
            @Override
            public WritableByteChannel channel() {
                return channel;
            }

            @Override
            public byte[] written() {
                return out.toByteArray();
            }

            @Override
            public void close() {}
        };
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("auto", "file", true),
                Arguments.of("auto", "file", false),
                Arguments.of("auto", "channel", true),
                Arguments.of("auto", "channel", false),
                Arguments.of("transferFrom", "file", true));
    }

    @ParameterizedTest(name = "{0} into a {1}, blocking source: {2}")
    @MethodSource("cases")
    void copy_exactCountFromSocket_leavesWhatFollowsUnread(String strategy, String target, boolean blocking)
            throws Exception {
        byte[] sent = randomBytes(COUNT + TRAILING);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                Sink sink = sink(target)) {
            CompletableFuture<Void> sending = send(pair, sent, false); // the connection stays open
            pair.receiver.configureBlocking(blocking);

            long copied = Transfers.copy(pair.receiver, COUNT, sink.channel(), copier(strategy, listener));

            assertThat(copied).isEqualTo(COUNT);
            ByteArrays.assertSameBytes("copied", sink.written(), Arrays.copyOf(sent, COUNT));
            assertThat(pair.receiver.isBlocking())
                    .as("the source's blocking mode")
                    .isEqualTo(blocking);
            pair.receiver.configureBlocking(true); // fails if the library left it registered
            sending.get(20, TimeUnit.SECONDS);
            ByteArrays.assertSameBytes(
                    "what the caller reads next",
                    LoopbackPair.readExactly(pair.receiver, TRAILING),
                    Arrays.copyOfRange(sent, COUNT, sent.length));
            ListenerCalls.verifyCompleted(
                    listener, strategy.equals("auto") ? BufferedStrategy.NAME : strategy, COUNT, COUNT);
        }
    }

    @ParameterizedTest(name = "{0} into a {1}, blocking source: {2}")
    @MethodSource("cases")
    void copy_peerEndsEarly_failsWithEofAndTheExactCount(String strategy, String target, boolean blocking)
            throws Exception {
        byte[] sent = randomBytes(300_001);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                Sink sink = sink(target)) {
            CompletableFuture<Void> sending = send(pair, sent, true);
            pair.receiver.configureBlocking(blocking);

            TransferException e = assertThrows(
                    TransferException.class,
                    () -> Transfers.copy(pair.receiver, COUNT, sink.channel(), copier(strategy, listener)));

            sending.get(20, TimeUnit.SECONDS);
            assertThat(e.getCause()).isInstanceOf(EOFException.class);
            assertThat(e.bytesTransferred()).isEqualTo(sent.length);
            assertThat(e).hasMessageContaining(sent.length + " of " + COUNT);
            ByteArrays.assertSameBytes("copied", sink.written(), sent);
            ListenerCalls.verifyFailed(listener, strategy.equals("auto") ? BufferedStrategy.NAME : strategy, COUNT, e);
            assertThat(pair.receiver.isOpen()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"file", "channel"})
    void copy_countZero_readsNothing(String target) throws Exception {
        byte[] sent = randomBytes(10);
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open();
                Sink sink = sink(target)) {
            send(pair, sent, false).get(20, TimeUnit.SECONDS);

            long copied = Transfers.copy(pair.receiver, 0, sink.channel(), copier("auto", listener));

            assertThat(copied).isZero();
            assertThat(sink.written()).isEmpty();
            assertThat(LoopbackPair.readExactly(pair.receiver, sent.length)).isEqualTo(sent);
            ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, 0, 0);
        }
    }

    @Test
    void copy_fileChannelSource_exactSliceFromItsPositionWhichAdvances() throws Exception {
        byte[] data = randomBytes(200_000);
        Path path = Files.write(dir.resolve("source"), data);
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ);
                Sink sink = sink("channel")) {
            source.position(1001);

            long copied = Transfers.copy(source, 150_003, sink.channel());

            assertThat(copied).isEqualTo(150_003);
            ByteArrays.assertSameBytes("copied", sink.written(), Arrays.copyOfRange(data, 1001, 1001 + 150_003));
            assertThat(source.position()).isEqualTo(1001 + 150_003);
        }
    }

    @Test
    void copy_fileChannelSourceToTheEnd_takesEveryByteLeft() throws Exception {
        byte[] data = randomBytes(5000);
        Path path = Files.write(dir.resolve("source"), data);
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ);
                Sink sink = sink("file")) {
            source.position(4000);

            assertThat(Transfers.copy(source, 1000, sink.channel())).isEqualTo(1000);

            ByteArrays.assertSameBytes("copied", sink.written(), Arrays.copyOfRange(data, 4000, 5000));
            assertThat(source.position()).isEqualTo(5000);
        }
    }

    /**
     * A channel or a {@code FileInputStream} positioned at or past the end of its file has nothing
     * left: copied to its end or for 0 bytes it gives 0, as the JDK's {@code transferTo} and
     * {@code InputStream.transferTo} do, and its position stays; asked for more, it is the caller's
     * mistake.
     */
    @ParameterizedTest
    @ValueSource(longs = {1000, 1001, 5000})
    void copy_positionedAtOrPastTheEnd_copiesNothing(long position) throws Exception {
        Path path = Files.write(dir.resolve("source"), randomBytes(1000));
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ);
                Sink sink = sink("channel")) {
            source.position(position);

            assertThat(Transfers.copy(source, sink.channel())).as("to its end").isZero();
            assertThat(Transfers.copy(source, 0, sink.channel())).as("0 bytes").isZero();
            assertThrows(IllegalArgumentException.class, () -> Transfers.copy(source, 1, sink.channel()));

            assertThat(source.position()).isEqualTo(position);
            assertThat(sink.written()).isEmpty();
        }
        try (FileInputStream stream = new FileInputStream(path.toFile())) {
            stream.getChannel().position(position);
            assertThat(Transfers.copy(stream, OutputStream.nullOutputStream()))
                    .as("a stream")
                    .isZero();
        }
    }

    @Test
    void copy_countBeyondTheFileEnd_illegalArgumentAndNothingMoves() throws Exception {
        byte[] data = randomBytes(10_000);
        Path path = Files.write(dir.resolve("source"), data);
        TransferListener listener = ListenerCalls.mockListener();
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ);
                Sink sink = sink("channel")) {
            source.position(9000);

            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> Transfers.copy(source, 1001, sink.channel(), copier("auto", listener)));

            assertThat(e).hasMessageContaining("count: 1001").hasMessageContaining("expected: <= 1000");
            assertThat(source.position()).isEqualTo(9000);
            assertThat(sink.written()).isEmpty();
            verifyNoInteractions(listener); // no onStart for a rejected copy
        }
    }

    @Test
    void copy_negativeCount_illegalArgument() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open();
                Sink sink = sink("channel")) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> Transfers.copy(pair.receiver, -1, sink.channel()));

            assertThat(e).hasMessageContaining("count: -1");
        }
    }
}
