package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A source opened with {@code ExtendedOpenOption.DIRECT} (O_DIRECT), whose reads into a buffer must
 * be block-aligned in position, address and length: copied at odd positions and counts to a socket,
 * a file, a stream and a pipe from a mapping, never read through a buffer, and never probed
 * with the one-byte read that O_DIRECT rejects. Skipped only where the temporary directory's file
 * system refuses O_DIRECT.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DirectIoSourceTest {

    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up by name: it is JDK-specific API,
     * which javac warns about on every build when it is named in source.
     */
    private static final OpenOption DIRECT = directOption();

    private static OpenOption directOption() {
        try {
            return (OpenOption) Class.forName("com.sun.nio.file.ExtendedOpenOption")
                    .getField("DIRECT")
                    .get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("this JDK has no ExtendedOpenOption.DIRECT", e);
        }
    }

    static final long SEED = Long.getLong("zerocopy.seed", 0xD1EC7L);

    private static final int SIZE = (2 << 20) + 13;

    private static byte[] data;

    @TempDir
    Path dir;

    private Path path;

    @BeforeAll
    static void makeData() {
        System.out.println(DirectIoSourceTest.class.getSimpleName() + ": seed " + SEED
                + " (replay with -Dzerocopy.seed=" + SEED + ")");
        data = new byte[SIZE];
        new Random(SEED).nextBytes(data);
    }

    @BeforeEach
    void writeSource() throws IOException {
        path = Files.write(dir.resolve("source"), data);
        try (FileChannel probe = openDirect(path)) {
            assertThat(ChannelKinds.isDirectIo(probe))
                    .as("the library sees O_DIRECT")
                    .isTrue();
        } catch (IOException e) {
            // the issue allows a skip only where the file system has no O_DIRECT
            Assumptions.abort(
                    "the file system of " + dir + " (" + Files.getFileStore(dir).type() + ") refuses O_DIRECT: " + e);
        }
    }

    private static FileChannel openDirect(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.READ, DIRECT);
    }

    /** A target and, once written to and finished, what it received. */
    private interface Sink extends AutoCloseable {
        WritableByteChannel channel();

        byte[] finish() throws Exception;

        @Override
        void close() throws IOException;
    }

    private Sink sink(String kind) throws IOException {
        switch (kind) {
            case "socket": {
                LoopbackPair pair = LoopbackPair.open(0);
                CompletableFuture<byte[]> received = pair.drainInBackground();
                return sink(
                        pair.sender,
                        () -> {
                            pair.sender.shutdownOutput();
                            return received.get(20, TimeUnit.SECONDS);
                        },
                        pair::close);
            }
            case "file": {
                Path target = dir.resolve("target");
                FileChannel file = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return sink(file, () -> Files.readAllBytes(target), file::close);
            }
            case "stream": {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                return sink(Channels.newChannel(out), out::toByteArray, () -> {});
            }
            case "pipe": {
                Pipe pipe = Pipe.open();
                CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                    try {
                        return Channels.newInputStream(pipe.source()).readAllBytes();
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                return sink(
                        pipe.sink(),
                        () -> {
                            pipe.sink().close();
                            return read.get(20, TimeUnit.SECONDS);
                        },
                        () -> {
                            pipe.sink().close();
                            pipe.source().close();
                        });
            }
            default:
                throw new IllegalArgumentException(kind);
        }
    }

    private interface Finish {
        byte[] get() throws Exception;
    }

    private interface Close {
        void run() throws IOException;
    }

    private static Sink sink(WritableByteChannel channel, Finish finish, Close close) {
        return new Sink() {
            @Override
            public WritableByteChannel channel() {
                return channel;
            }

            @Override
            public byte[] finish() throws Exception {
                return finish.get();
            }

            @Override
            public void close() throws IOException {
                close.run();
            }
        };
    }

    static Stream<Arguments> slices() {
        String[] targets = {"socket", "file", "stream", "pipe"};
        long[][] slices = {{0, SIZE}, {1, 4095}, {4097, 1_000_003}, {SIZE - 7, 7}, {12_345, 0}};
        return Stream.of(targets).flatMap(t -> Stream.of(slices).map(s -> Arguments.of(t, s[0], s[1])));
    }

    @ParameterizedTest(name = "to a {0}: {2} bytes from {1}")
    @MethodSource("slices")
    void copy_directSourceAtOddPositions_defaultChoiceDeliversTheSlice(String target, long position, long count)
            throws Exception {
        TransferListener listener = ListenerCalls.mockListener();
        try (FileChannel source = openDirect(path);
                Sink sink = sink(target)) {
            long copied = Transfers.copy(
                    source,
                    position,
                    count,
                    sink.channel(),
                    TransferOptions.builder().listener(listener).build());

            assertThat(copied).isEqualTo(count);
            ByteArrays.assertSameBytes(
                    "received", sink.finish(), Arrays.copyOfRange(data, (int) position, (int) (position + count)));
            TransferResult result = ListenerCalls.verifyCompleted(listener, MappedStrategy.NAME, count, count);
            assertThat(result.reason()).contains("direct I/O");
            assertThat(source.position()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"socket", "file", "stream", "pipe"})
    void copy_directSourceForcedMmap_deliversTheSlice(String target) throws Exception {
        try (FileChannel source = openDirect(path);
                Sink sink = sink(target)) {
            long copied = Transfers.copy(
                    source,
                    4097,
                    1_000_003,
                    sink.channel(),
                    TransferOptions.builder().strategy("mmap").build());

            assertThat(copied).isEqualTo(1_000_003);
            ByteArrays.assertSameBytes("received", sink.finish(), Arrays.copyOfRange(data, 4097, 4097 + 1_000_003));
        }
    }

    /**
     * Neither can serve it: the buffered strategy's reads would have to be aligned, and sendfile and
     * copy_file_range fail with EINVAL at an unaligned offset, after which the JDK reads through an
     * unaligned buffer (on JDK 21+ for pieces under 16 KiB, to every target). "Cannot serve" before a
     * byte moves, rather than a failure midway.
     */
    @ParameterizedTest(name = "{0} to a {1}")
    @MethodSource("forcedButUnfit")
    void copy_directSourceForcedBufferedOrTransferTo_cannotServe(String strategy, String target) throws Exception {
        try (FileChannel source = openDirect(path);
                Sink sink = sink(target)) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> Transfers.copy(
                            source,
                            1,
                            100,
                            sink.channel(),
                            TransferOptions.builder().strategy(strategy).build()));

            assertThat(e).hasMessageContaining("cannot serve").hasMessageContaining("direct I/O");
            assertThat(sink.finish()).isEmpty();
        }
    }

    static Stream<Arguments> forcedButUnfit() {
        return Stream.of("buffered", "transferTo")
                .flatMap(strategy ->
                        Stream.of("socket", "file", "stream", "pipe").map(target -> Arguments.of(strategy, target)));
    }

    @Test
    void advance_directSourceToAFullNonBlockingSocket_neverProbesTheSource() throws Exception {
        try (FileChannel source = openDirect(path);
                LoopbackPair pair = LoopbackPair.open()) {
            pair.sender.configureBlocking(false);
            Transfer transfer = Transfers.open(FileRegion.of(source, 4097, 1_000_003), pair.sender);

            long first = transfer.advance();
            // Many zero-progress calls in a row: past Stall.SELECT_TRUST a FILE source would be
            // probed with a one-byte read, which O_DIRECT rejects.
            for (int i = 0; i < 4 * Stall.SELECT_TRUST; i++) {
                assertThat(transfer.advance())
                        .as("advance %d on a full socket", i)
                        .isZero();
                assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
            }
            assertThat(first).isPositive();

            CompletableFuture<byte[]> received = pair.drainInBackground();
            EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();
            ByteArrays.assertSameBytes(
                    "received", received.get(20, TimeUnit.SECONDS), Arrays.copyOfRange(data, 4097, 4097 + 1_000_003));
        }
    }

    @Test
    void copyChannel_directSourceFromItsPosition_toTheEndAndExactly() throws Exception {
        try (FileChannel source = openDirect(path)) {
            source.position(3);
            ByteArrayOutputStream exact = new ByteArrayOutputStream();

            assertThat(Transfers.copy(source, 100_001, Channels.newChannel(exact)))
                    .isEqualTo(100_001);
            assertThat(source.position()).isEqualTo(100_004);

            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            assertThat(Transfers.copy(source, Channels.newChannel(rest))).isEqualTo(SIZE - 100_004);
            assertThat(source.position()).isEqualTo(SIZE);

            ByteArrays.assertSameBytes("exact", exact.toByteArray(), Arrays.copyOfRange(data, 3, 100_004));
            ByteArrays.assertSameBytes("rest", rest.toByteArray(), Arrays.copyOfRange(data, 100_004, SIZE));
        }
    }

    @Test
    void copyChannel_emptyDirectSource_copiesNothing() throws Exception {
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        try (FileChannel source = openDirect(empty)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();

            assertThat(Transfers.copy(source, Channels.newChannel(out))).isZero();
            assertThat(Transfers.copy(source, 0, Channels.newChannel(out))).isZero();

            assertThat(out.size()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"socket", "file", "stream", "pipe"})
    void copy_directSource_leavesTheThreadsJdkBufferCacheUsable(String target) throws Exception {
        try (FileChannel source = openDirect(path);
                Sink sink = sink(target)) {
            Transfers.copy(source, 1, 100, sink.channel());
        }
        // On JDK 17 a heap-buffer read of an O_DIRECT channel, even of zero bytes, leaves an aligned
        // slice in this thread's JDK buffer cache; the next heap write too large for any cached
        // buffer frees it, and fails with NullPointerException.
        Path after = dir.resolve("after");
        Files.write(after, new byte[8 << 20]);

        assertThat(Files.size(after)).isEqualTo(8 << 20);
    }

    @Test
    void copyHeaderAndBody_directSource() throws Exception {
        byte[] header = {'H', 'I', '\r', '\n'};
        try (FileChannel source = openDirect(path);
                Sink sink = sink("socket")) {
            long copied = Transfers.copy(
                    FileRegion.of(source, 4097, 100_003).withPrefix(new ByteBuffer[] {ByteBuffer.wrap(header)}),
                    sink.channel());

            assertThat(copied).isEqualTo(header.length + 100_003);
            byte[] expected = Arrays.copyOf(header, header.length + 100_003);
            System.arraycopy(data, 4097, expected, header.length, 100_003);
            ByteArrays.assertSameBytes("received", sink.finish(), expected);
        }
    }
}
