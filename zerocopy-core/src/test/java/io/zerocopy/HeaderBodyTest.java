package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.InOrder;

/**
 * Header + body: {@code copy(header, file, position, count, target)} and its {@code open} form. What
 * arrives is checked byte for byte over real loopback sockets (blocking and not, Nagle on and off)
 * for bodies around {@link PrefixWrite#FIRST_CHUNK_BYTES} and {@link PrefixWrite#WHOLE_BODY_BYTES}, and past
 * one loopback segment; how the first write is made is checked with a target that records every call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HeaderBodyTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0x4EADL);

    /** An odd position, past the first page, so that neither a page nor a block boundary lines up. */
    private static final int POSITION = 4099;

    private static final int CHUNK = PrefixWrite.FIRST_CHUNK_BYTES;
    private static final int WHOLE = PrefixWrite.WHOLE_BODY_BYTES;
    private static final int[] BODIES = {0, 1, 4096, CHUNK - 1, CHUNK, CHUNK + 1, WHOLE, WHOLE + 1, 256 << 10, 1 << 20};

    @TempDir
    Path dir;

    private final Random random = new Random(SEED);

    @BeforeAll
    static void printSeed() {
        System.out.println(HeaderBodyTest.class.getSimpleName() + ": seed " + SEED + " (replay with -Dzerocopy.seed="
                + SEED + ")");
    }

    /** A file with {@code body} random bytes at {@link #POSITION} and more after them. */
    private byte[] fileFor(int body) {
        byte[] data = new byte[POSITION + body + 777];
        random.nextBytes(data);
        return data;
    }

    /** Three header buffers of different kinds (heap, direct, read-only), as a response's status, fields and blank line. */
    private static ByteBuffer[] header(int body) {
        ByteBuffer status = ByteBuffer.wrap("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] fields = ("Content-Length: " + body + "\r\nContent-Type: application/octet-stream\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        ByteBuffer direct = ByteBuffer.allocateDirect(fields.length).put(fields).flip();
        ByteBuffer end =
                ByteBuffer.wrap("\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
        return new ByteBuffer[] {status, direct, end};
    }

    private static byte[] bytesOf(ByteBuffer[] header) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : header) {
            ByteBuffer d = b.duplicate();
            byte[] bytes = new byte[d.remaining()];
            d.get(bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] expected(byte[] header, byte[] data, int body) {
        byte[] all = Arrays.copyOf(header, header.length + body);
        System.arraycopy(data, POSITION, all, header.length, body);
        return all;
    }

    private static void assertConsumed(ByteBuffer[] header) {
        for (int i = 0; i < header.length; i++) {
            assertThat(header[i].hasRemaining()).as("header[%d] consumed", i).isFalse();
        }
    }

    static Stream<Arguments> sockets() {
        return IntStream.of(BODIES)
                .boxed()
                .flatMap(body -> Stream.of(
                        Arguments.of(body, true, true), Arguments.of(body, true, false),
                        Arguments.of(body, false, true), Arguments.of(body, false, false)));
    }

    @ParameterizedTest(name = "body {0}, blocking {1}, Nagle {2}")
    @MethodSource("sockets")
    void copy_headerAndBodyToLoopback_arriveByteForByte(int body, boolean blocking, boolean nagle) throws Exception {
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.setOption(StandardSocketOptions.TCP_NODELAY, !nagle);
            pair.sender.configureBlocking(blocking);
            file.position(77);
            CompletableFuture<byte[]> received = pair.drainInBackground();

            long sent = Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), pair.sender);
            pair.sender.shutdownOutput();

            assertThat(sent).as("header + count").isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes(
                    "received", received.get(20, TimeUnit.SECONDS), expected(headerBytes, data, body));
            assertConsumed(header);
            assertThat(file.position()).as("the source's position").isEqualTo(77);
            assertThat(pair.sender.isBlocking()).isEqualTo(blocking);
            assertThat(pair.sender.isRegistered()).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, WHOLE, WHOLE + 1, 100_000})
    void copy_firstWriteGathersTheHeaderWithTheFirstChunk(int body) throws Exception {
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        RecordingGatherer target = new RecordingGatherer(Integer.MAX_VALUE);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long sent = Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), target);

            assertThat(sent).isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes("written", target.bytes.toByteArray(), expected(headerBytes, data, body));
            RecordingGatherer.Call first = target.calls.get(0);
            assertThat(first.gathering).as("the first write gathers").isTrue();
            assertThat(first.offered)
                    .as("bytes offered to the first write")
                    .isEqualTo(headerBytes.length + gathered(body));
            assertThat(first.taken).isEqualTo(first.offered);
            assertConsumed(header);
        }
    }

    /**
     * Where the whole body's row is passed over (a strategy forced, buffered excluded), the first
     * write still gathers the header with the start of the body, as for a body above the whole
     * size; the chosen strategy sends the rest. Before, the header went alone.
     */
    @ParameterizedTest(name = "{0} bytes, {1}")
    @CsvSource({
        "1000, strategy=mmap",
        "1000, strategy=transferTo",
        "1000, exclude=buffered",
        "40000, strategy=mmap",
        "40000, exclude=buffered"
    })
    void copy_wholeBodysRowPassedOver_firstWriteStillGathersTheHeaderWithTheBody(int body, String option)
            throws Exception {
        TransferOptions options = optionsOf(option.split("="));
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        RecordingGatherer target = new RecordingGatherer(Integer.MAX_VALUE);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long sent = Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), target, options);

            assertThat(sent).isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes("written", target.bytes.toByteArray(), expected(headerBytes, data, body));
            RecordingGatherer.Call first = target.calls.get(0);
            assertThat(first.gathering).as("the first write gathers").isTrue();
            assertThat(first.offered)
                    .as("bytes offered to the first write")
                    .isEqualTo(headerBytes.length + Math.min(body, PrefixWrite.FIRST_CHUNK_BYTES));
        }
    }

    @Test
    void copy_gatheringTargetTakingLittle_neverWritesTheHeaderAlone() throws Exception {
        int body = 100_000;
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        RecordingGatherer target = new RecordingGatherer(10); // less than the header each call
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long sent = Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), target);

            assertThat(sent).isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes("written", target.bytes.toByteArray(), expected(headerBytes, data, body));
            long prefixCalls = (headerBytes.length + CHUNK + 9) / 10;
            for (int i = 0; i < prefixCalls; i++) {
                RecordingGatherer.Call call = target.calls.get(i);
                // while header bytes are left they go with the chunk; the chunk's rest alone is a plain write
                assertThat(call.gathering).as("call %d gathers", i).isEqualTo(10L * i < headerBytes.length);
                assertThat(call.offered)
                        .as("call %d is offered the header's rest and the chunk", i)
                        .isEqualTo(headerBytes.length + CHUNK - 10L * i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, CHUNK + 1, 100_000})
    void copy_nonGatheringTarget_stillGetsEverything(int body) throws Exception {
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            long sent = Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), target);

            assertThat(sent).isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes("written", target.bytes(), expected(headerBytes, data, body));
            assertConsumed(header);
        }
    }

    @Test
    void copy_noHeaderBuffersOrEmptyOnes_isTheBodyAlone() throws Exception {
        int body = 30_000;
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            for (ByteBuffer[] header : List.of(new ByteBuffer[0], new ByteBuffer[] {ByteBuffer.allocate(0)})) {
                Target target = Target.of(Behaviour.RANDOM_SHORT, random);

                assertThat(Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header), target))
                        .isEqualTo(body);

                ByteArrays.assertSameBytes("written", target.bytes(), expected(new byte[0], data, body));
            }
        }
    }

    @Test
    void copy_nullHeaderBuffer_nullPointerBeforeAnything() throws Exception {
        Path path = Files.write(dir.resolve("body"), fileFor(10));
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer[] header = {ByteBuffer.allocate(3), null};

            NullPointerException e = assertThrows(
                    NullPointerException.class,
                    () -> Transfers.copy(FileRegion.of(file, POSITION, 10).withPrefix(header), target));

            assertThat(e).hasMessageContaining("prefix[1]");
            assertThat(target.calls()).isZero();
            assertThat(header[0].remaining()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, CHUNK - 1, 1 << 20})
    void open_headerAndBody_asATransferInASelectorLoop(int body) throws Exception {
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, POSITION, body).withPrefix(header), pair.sender);
            assertThat(transfer.count()).as("count, header included").isEqualTo(headerBytes.length + body);
            assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);
            CompletableFuture<byte[]> received = pair.drainInBackground();

            EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();

            assertThat(transfer.bytesTransferred()).isEqualTo(headerBytes.length + body);
            assertThat(transfer.result().bytesTransferred()).isEqualTo(headerBytes.length + body);
            ByteArrays.assertSameBytes(
                    "received", received.get(20, TimeUnit.SECONDS), expected(headerBytes, data, body));
            assertConsumed(header);
        }
    }

    /**
     * A body that goes whole with the prefix runs no strategy after it: the result says so, with
     * the body's size, where the choice for the empty rest used to speak of "a file of at most
     * 8192 bytes" whatever the body was.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 4096, 40_960, WHOLE})
    void result_bodyWholeWithThePrefix_saysSo(int body) throws Exception {
        TransferResult result = resultWithPrefix(body);

        assertThat(result.strategy()).isEqualTo(BufferedStrategy.NAME);
        assertThat(result.reason())
                .contains(body == 0 ? "empty body" : "the whole body, " + body + " bytes, goes with the prefix");
    }

    /** A body larger than goes whole: the result names the first chunk that went with the prefix, then the strategy. */
    @ParameterizedTest
    @ValueSource(ints = {WHOLE + 1, 100_000})
    void result_bodyPartlyWithThePrefix_saysHowMuch(int body) throws Exception {
        assertThat(resultWithPrefix(body).reason())
                .endsWith(
                        "; the body's first " + gathered(body) + " bytes went with the prefix in one gathering write");
    }

    /** The result of a body of {@code body} bytes after its header, driven to the end into a gathering target. */
    private TransferResult resultWithPrefix(int body) throws Exception {
        Path path = Files.write(dir.resolve("body"), fileFor(body));
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(
                    FileRegion.of(file, POSITION, body).withPrefix(header(body)), new RecordingGatherer(1000));
            while (!transfer.isDone()) {
                transfer.advance();
            }
            return transfer.result();
        }
    }

    /**
     * The body is read into a buffer lent by the shared pool for the first write; it goes back
     * however the transfer ends, and while it waits after a short first write. More transfers than
     * the pool's budget has buffers run each way, so one kept buffer each would leave the pool with
     * none to lend.
     */
    @Test
    void poolBuffer_givenBackWhenDoneAbandonedFailedOrWaiting() throws Exception {
        int size = TransferOptions.DEFAULT_BUFFER_SIZE;
        assumeTrue(Pools.canLend(DirectBuffers.SHARED, size), "the shared budget has room");
        int body = 4096;
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        long rounds = DirectBuffers.SHARED.budget() / size + 1;
        List<Transfer> waiting = new ArrayList<>();
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            for (long i = 0; i < rounds; i++) {
                Target done = Target.of(Behaviour.RANDOM_SHORT, random);
                assertThat(Transfers.copy(FileRegion.of(file, POSITION, body).withPrefix(header(body)), done))
                        .isEqualTo(bytesOf(header(body)).length + body);

                Transfers.open(FileRegion.of(file, POSITION, body).withPrefix(header(body)), done)
                        .close();

                FileRegion pastTheEnd =
                        FileRegion.of(file, data.length - 10, 20).withPrefix(header(20));
                assertThrows(IllegalArgumentException.class, () -> Transfers.open(pastTheEnd, done));

                Transfer slow = Transfers.open(
                        FileRegion.of(file, POSITION, body).withPrefix(header(body)), new RecordingGatherer(10));
                assertThat(slow.advance()).isEqualTo(10);
                waiting.add(slow);
            }

            assertThat(Pools.canLend(DirectBuffers.SHARED, size))
                    .as("the pool can still lend")
                    .isTrue();
        } finally {
            waiting.forEach(Transfer::close);
        }
    }

    @Test
    void open_fileTruncatedBeforeTheFirstChunkIsRead_truncatedAndNothingSent() throws Exception {
        int body = 100_000;
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        TransferListener listener = ListenerCalls.mockListener();
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            Transfer transfer = Transfers.open(
                    FileRegion.of(file, POSITION, body).withPrefix(header),
                    target,
                    TransferOptions.builder().listener(listener).build());
            truncate(path, POSITION + 100);

            TruncatedSourceException e = assertThrows(TruncatedSourceException.class, transfer::advance);

            assertThat(e.bytesTransferred()).isZero();
            assertThat(e.expectedSize()).isEqualTo(POSITION + body);
            assertThat(e.actualSize()).isEqualTo(POSITION + 100);
            assertThat(target.size()).as("bytes written").isZero();
            InOrder inOrder = inOrder(listener);
            inOrder.verify(listener).onStart(anyString(), anyLong());
            inOrder.verify(listener).onFailure(e);
            verifyNoMoreInteractions(listener);
        }
    }

    @Test
    void open_fileTruncatedAfterTheHeaderWentOut_truncatedWithTheCount() throws Exception {
        int body = 1 << 20;
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        int shrunk = POSITION + 300_001;
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            pair.sender.configureBlocking(false);
            Transfer transfer =
                    Transfers.open(FileRegion.of(file, POSITION, body).withPrefix(header), pair.sender);
            long first = transfer.advance(); // the receiver reads nothing yet: fills the socket
            assertThat(first).isGreaterThan(headerBytes.length);
            truncate(path, shrunk);
            CompletableFuture<byte[]> received = pair.drainInBackground();

            TruncatedSourceException e =
                    catchThrowableOfType(TruncatedSourceException.class, () -> EventLoops.drive(transfer, pair.sender));
            pair.sender.shutdownOutput();

            assertThat(e).as("the failure").isNotNull();
            assertThat(e.expectedSize()).isEqualTo(POSITION + body);
            assertThat(e.actualSize()).isEqualTo(shrunk);
            byte[] got = received.get(20, TimeUnit.SECONDS);
            assertThat((long) got.length).isEqualTo(e.bytesTransferred()).isEqualTo(transfer.bytesTransferred());
            ByteArrays.assertSameBytes("received", got, Arrays.copyOf(expected(headerBytes, data, body), got.length));
        }
    }

    @Test
    void copy_fileTruncatedAtStart_truncatedSourceException() throws Exception {
        int body = 100_000;
        Path path = Files.write(dir.resolve("body"), fileFor(body));
        ByteBuffer[] header = header(body);
        Target target = Target.of(Behaviour.RANDOM_SHORT, random);
        TransferListener truncating = new TransferListener() {
            @Override
            public void onStart(String strategy, long expectedBytes) {
                try {
                    truncate(path, POSITION + 10);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            TruncatedSourceException e = assertThrows(
                    TruncatedSourceException.class,
                    () -> Transfers.copy(
                            FileRegion.of(file, POSITION, body).withPrefix(header),
                            target,
                            TransferOptions.builder().listener(truncating).build()));

            assertThat(e.bytesTransferred()).isZero();
            assertThat(target.size()).isZero();
        }
    }

    /**
     * A forced strategy runs for a region with a prefix of any size, and an excluded one never
     * does: the body that would go whole with the prefix goes by the forced strategy, after the
     * prefix; bytes exact either way.
     */
    @ParameterizedTest(name = "{0} bytes, {1}")
    @CsvSource({
        "4096, strategy=transferTo",
        "4096, strategy=mmap",
        "4096, exclude=buffered",
        "4096, strategy=buffered",
        "70000, strategy=transferTo",
        "70000, strategy=mmap",
        "70000, exclude=buffered",
        "200000, strategy=mmap",
        "200000, exclude=buffered"
    })
    void copy_forcedOrExcludedStrategy_holdsForAPrefixedRegion(int body, String option) throws Exception {
        String[] nameValue = option.split("=");
        TransferOptions options = optionsOf(nameValue);
        byte[] data = fileFor(body);
        Path path = Files.write(dir.resolve("body"), data);
        ByteBuffer[] header = header(body);
        byte[] headerBytes = bytesOf(header);
        List<String> ran = new ArrayList<>();
        try (LoopbackPair pair = LoopbackPair.open();
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            CompletableFuture<byte[]> received = pair.drainInBackground();
            Transfers.copy(
                    FileRegion.of(file, POSITION, body).withPrefix(header),
                    pair.sender,
                    options.toBuilder().listener(onStart(ran)).build());
            pair.sender.shutdownOutput();

            if (nameValue[0].equals("strategy")) {
                assertThat(ran).as("the forced strategy runs").containsExactly(nameValue[1]);
            } else {
                assertThat(ran)
                        .as("the excluded strategy never runs")
                        .hasSize(1)
                        .doesNotContain(nameValue[1]);
            }
            ByteArrays.assertSameBytes(
                    "received", received.get(20, TimeUnit.SECONDS), expected(headerBytes, data, body));
        }
    }

    /** {@code strategy=NAME} forced or {@code exclude=NAME} excluded, as the parameterized tests spell it. */
    private static TransferOptions optionsOf(String[] nameValue) {
        return nameValue[0].equals("strategy")
                ? TransferOptions.builder().strategy(nameValue[1]).build()
                : TransferOptions.builder().exclude(nameValue[1]).build();
    }

    private static TransferListener onStart(List<String> strategies) {
        return new TransferListener() {
            @Override
            public void onStart(String strategy, long expectedBytes) {
                strategies.add(strategy);
            }
        };
    }

    @Test
    void chunk_smallBodyGoesWholeOrNotAtAll_elseFillsTheSegmentToALoopbackPeer_else16KiB() {
        int mss = Peers.LOOPBACK_MSS_IPV4;
        long unpaced = TransferFacts.MAX_STEP_BYTES; // a step without a rate limit

        assertThat(PrefixWrite.goesWhole(200, WHOLE, unpaced))
                .as("a body up to %d may go whole", WHOLE)
                .isTrue();
        assertThat(PrefixWrite.goesWhole(200, WHOLE + 1, unpaced))
                .as("a larger one may not")
                .isFalse();
        assertThat(PrefixWrite.chunkBytes(200, WHOLE, mss, unpaced))
                .as("a body up to %d: no first chunk ahead of a strategy", WHOLE)
                .isZero();
        assertThat(PrefixWrite.chunkBytes(200, WHOLE + 1, 0, unpaced))
                .as("another host")
                .isEqualTo(CHUNK);
        assertThat(200 + PrefixWrite.chunkBytes(200, WHOLE + 1, mss, unpaced))
                .as("loopback: one segment")
                .isEqualTo(mss);
        assertThat(70_000 + PrefixWrite.chunkBytes(70_000, 1 << 20, mss, unpaced))
                .as("a header over one segment: two")
                .isEqualTo(2 * mss);
        assertThat(PrefixWrite.chunkBytes(mss, 1 << 20, mss, unpaced))
                .as("a header of exactly one segment: one more")
                .isEqualTo(mss);
    }

    private static void truncate(Path path, long size) throws IOException {
        try (FileChannel writer = FileChannel.open(path, StandardOpenOption.WRITE)) {
            writer.truncate(size);
        }
    }

    /** The file bytes the first write gathers with the header: a small body whole, else the first chunk. */
    private static long gathered(long body) {
        return body <= WHOLE ? body : CHUNK;
    }
}
