package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zerocopy.testing.AdversarialChannels.Behaviour;
import io.zerocopy.testing.AdversarialChannels.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files of other file system providers: a zip file system's entry (its FileChannel cannot be mapped
 * and is no JDK class, the JDK 25 case that used to throw {@code UnsupportedOperationException} from
 * {@code map}), and {@link WrappingFileSystem}, whose FileChannel subclass counts what the library
 * calls on it. Every verb must read them at explicit positions with a buffer and leave the caller's
 * channel where it was; forcing a strategy that cannot serve them is "cannot serve", the system
 * property falls back.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OtherProviderTest {
    static final long SEED = Long.getLong("zerocopy.seed", 0x21FL);

    /** Above the 4 MiB mapping threshold, so that a JDK file of this size would go to mmap on a JDK 25 pipe. */
    private static final int SIZE = (5 << 20) + 3;

    private static byte[] data;

    @TempDir
    Path dir;

    private FileSystem zip;
    private Path zipEntry;
    private final WrappingFileSystem wrapping = new WrappingFileSystem();
    private Path plainFile;

    @BeforeAll
    static void makeData() {
        System.out.println(OtherProviderTest.class.getSimpleName() + ": seed " + SEED + " (replay with -Dzerocopy.seed="
                + SEED + ")");
        data = new byte[SIZE];
        new Random(SEED).nextBytes(data);
    }

    @BeforeEach
    void makeFiles() throws IOException {
        Path zipFile = dir.resolve("data.zip");
        try (FileSystem writing = FileSystems.newFileSystem(zipFile, Map.of("create", "true"))) {
            Files.write(writing.getPath("data.bin"), data);
        }
        zip = FileSystems.newFileSystem(zipFile, Map.of());
        zipEntry = zip.getPath("data.bin");
        plainFile = Files.write(dir.resolve("plain.bin"), data);
    }

    @AfterEach
    void closeZip() throws IOException {
        zip.close();
    }

    private Path source(String provider) {
        return provider.equals("zip") ? zipEntry : wrapping.wrap(plainFile);
    }

    private static TransferOptions options(TransferListener listener) {
        return TransferOptions.builder().listener(listener).build();
    }

    /** Copies with {@code copy} into a pipe read on another thread; returns what came out. */
    private static byte[] throughPipe(ThrowingCopy copy) throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel out = pipe.source()) {
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                try {
                    ByteArrayOutputStream all = new ByteArrayOutputStream();
                    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                    while (out.read(buffer) >= 0) {
                        all.write(buffer.array(), 0, buffer.position());
                        buffer.clear();
                    }
                    return all.toByteArray();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (Pipe.SinkChannel in = pipe.sink()) {
                copy.into(in);
            }
            return read.get(20, TimeUnit.SECONDS);
        }
    }

    @FunctionalInterface
    private interface ThrowingCopy {
        void into(WritableByteChannel target) throws IOException;
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copyPath_toAPipe_readWithABuffer(String provider) throws Exception {
        TransferListener listener = ListenerCalls.mockListener();

        byte[] got = throughPipe(pipe -> assertThat(Transfers.copy(source(provider), pipe, options(listener)))
                .isEqualTo(SIZE));

        ByteArrays.assertSameBytes("through the pipe", got, data);
        ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, SIZE, SIZE);
        assertWrappedChannelsUntouched(provider);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copyPath_toALoopbackSocket(String provider) throws Exception {
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open()) {
            CompletableFuture<byte[]> received = pair.drainInBackground();

            long copied = Transfers.copy(source(provider), pair.sender, options(listener));
            pair.sender.shutdownOutput();

            assertThat(copied).isEqualTo(SIZE);
            ByteArrays.assertSameBytes("received", received.get(20, TimeUnit.SECONDS), data);
            ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, SIZE, SIZE);
            assertWrappedChannelsUntouched(provider);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copyPath_toAFileChannelAndToAPath(String provider) throws Exception {
        Path target = dir.resolve("copy.bin");
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            assertThat(Transfers.copy(source(provider), out)).isEqualTo(SIZE);
            assertThat(out.position()).isEqualTo(SIZE);
        }
        ByteArrays.assertSameBytes("file", Files.readAllBytes(target), data);

        Path second = dir.resolve("second.bin");
        assertThat(Transfers.copy(source(provider), second)).isEqualTo(SIZE);
        ByteArrays.assertSameBytes("path", Files.readAllBytes(second), data);
        assertWrappedChannelsUntouched(provider);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "transferTo"})
    void copyPath_forcedStrategyThatNeedsAJdkFile_cannotServe(String strategy) throws Exception {
        for (String provider : new String[] {"zip", "wrapping"}) {
            Target target = Target.of(Behaviour.RANDOM_SHORT, new Random(SEED));
            TransferOptions forced =
                    TransferOptions.builder().strategy(strategy).build();

            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> Transfers.copy(source(provider), target, forced));

            assertThat(e).as(provider).hasMessageContaining("cannot serve").hasMessageContaining(strategy);
            assertThat(target.calls()).as(provider + ": calls into the target").isZero();
        }
        assertThat(wrapping.opened)
                .allSatisfy(channel -> assertThat(channel.isOpen()).isFalse());
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copyPath_mmapBySystemProperty_fallsBackToBuffered(String provider) throws Exception {
        TransferListener listener = ListenerCalls.mockListener();
        String before = System.getProperty(TransferOptions.STRATEGY_PROPERTY);
        System.setProperty(TransferOptions.STRATEGY_PROPERTY, "mmap");
        try {
            byte[] got = throughPipe(pipe -> Transfers.copy(source(provider), pipe, options(listener)));

            ByteArrays.assertSameBytes("through the pipe", got, data);
        } finally {
            if (before == null) {
                System.clearProperty(TransferOptions.STRATEGY_PROPERTY);
            } else {
                System.setProperty(TransferOptions.STRATEGY_PROPERTY, before);
            }
        }
        TransferResult result = ListenerCalls.verifyCompleted(listener, BufferedStrategy.NAME, SIZE, SIZE);
        assertThat(result.reason()).doesNotContain("forced");
        assertWrappedChannelsUntouched(provider);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copySlice_ofAnotherProvidersChannel_exactSliceAndPositionUnchanged(String provider) throws Exception {
        try (FileChannel source = FileChannel.open(source(provider), StandardOpenOption.READ)) {
            source.position(55);
            Target target = Target.of(Behaviour.RANDOM_SHORT, new Random(SEED));

            long copied = Transfers.copy(source, 4097, 1_000_003, target);

            assertThat(copied).isEqualTo(1_000_003);
            ByteArrays.assertSameBytes("slice", target.bytes(), Arrays.copyOfRange(data, 4097, 4097 + 1_000_003));
            assertThat(source.position()).as("the caller's position").isEqualTo(55);
            assertThat(source.isOpen()).isTrue();
        }
        assertWrappedChannelsUntouched(provider);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void copyHeaderAndSlice_ofAnotherProvidersChannel(String provider) throws Exception {
        byte[] header = "HEADER\r\n".getBytes(StandardCharsets.US_ASCII);
        try (FileChannel source = FileChannel.open(source(provider), StandardOpenOption.READ)) {
            RecordingGatherer target = new RecordingGatherer(Integer.MAX_VALUE);

            long copied = Transfers.copy(
                    FileRegion.of(source, 7, 100_000).withPrefix(new ByteBuffer[] {ByteBuffer.wrap(header)}), target);

            assertThat(copied).isEqualTo(header.length + 100_000);
            byte[] expected = Arrays.copyOf(header, header.length + 100_000);
            System.arraycopy(data, 7, expected, header.length, 100_000);
            ByteArrays.assertSameBytes("header + slice", target.bytes.toByteArray(), expected);
            assertThat(target.calls.get(0).gathering).isTrue();
            assertThat(source.position()).isZero();
        }
        assertWrappedChannelsUntouched(provider);
    }

    @Test
    void copyChannel_ofAnotherProviderFromItsPosition_readsToTheEndAndAdvancesIt() throws Exception {
        try (FileChannel source = FileChannel.open(source("wrapping"), StandardOpenOption.READ)) {
            source.position(1000);
            Target target = Target.of(Behaviour.RANDOM_SHORT, new Random(SEED));

            assertThat(Transfers.copy(source, target)).isEqualTo(SIZE - 1000);

            ByteArrays.assertSameBytes("rest", target.bytes(), Arrays.copyOfRange(data, 1000, SIZE));
            assertThat(source.position()).isEqualTo(SIZE);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "wrapping"})
    void openPath_toANonBlockingSocket_advanceRunsUntilTheSocketIsFull(String provider) throws Exception {
        TransferListener listener = ListenerCalls.mockListener();
        try (LoopbackPair pair = LoopbackPair.open()) {
            pair.sender.configureBlocking(false);
            // small buffers: one step is far less than the socket takes
            Transfer transfer = Transfers.open(
                    source(provider),
                    pair.sender,
                    TransferOptions.builder()
                            .bufferSize(1024)
                            .listener(listener)
                            .build());

            long first = transfer.advance();
            int steps = ListenerCalls.progress(listener).size();
            long second = transfer.advance();

            assertThat(steps).as("steps of the first advance").isGreaterThan(1);
            assertThat(first).isGreaterThan(1024);
            assertThat(second).as("the socket is full").isZero();
            assertThat(transfer.interestOps()).isEqualTo(SelectionKey.OP_WRITE);

            CompletableFuture<byte[]> received = pair.drainInBackground();
            EventLoops.drive(transfer, pair.sender);
            pair.sender.shutdownOutput();
            ByteArrays.assertSameBytes("received", received.get(20, TimeUnit.SECONDS), data);
        }
        assertWrappedChannelsUntouched(provider);
    }

    @Test
    void openSlice_wrappedFileTruncatedMidway_truncatedSourceException() throws Exception {
        Path path = source("wrapping");
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ)) {
            Target target = Target.of(Behaviour.RANDOM_SHORT, new Random(SEED));
            Transfer transfer = Transfers.open(
                    FileRegion.of(source, 0, SIZE),
                    target,
                    TransferOptions.builder().bufferSize(4096).build());
            transfer.advance();
            try (FileChannel writer = FileChannel.open(plainFile, StandardOpenOption.WRITE)) {
                writer.truncate(100_000);
            }

            TruncatedSourceException e = assertThrows(TruncatedSourceException.class, () -> {
                while (!transfer.isDone()) {
                    transfer.advance();
                }
            });

            assertThat(e.actualSize()).isEqualTo(100_000);
            assertThat(e.expectedSize()).isEqualTo(SIZE);
            assertThat(e.bytesTransferred()).isEqualTo(target.size()).isLessThanOrEqualTo(100_000);
            ByteArrays.assertSameBytes(
                    "before the truncation", target.bytes(), Arrays.copyOf(data, (int) target.size()));
        }
    }

    /** The wrapping provider's channels: all closed by now (by the library or the test), never moved by a relative read, mapped or handed to transferTo. */
    private void assertWrappedChannelsUntouched(String provider) {
        if (!provider.equals("wrapping")) {
            return;
        }
        assertThat(wrapping.opened).as("channels opened").isNotEmpty();
        for (WrappingFileSystem.Channel channel : wrapping.opened) {
            assertThat(channel.relativeReads).as("relative reads").hasValue(0);
            assertThat(channel.positionalReads).as("positional reads").doesNotHaveValue(0);
            assertThat(channel.transfersTo).as("transferTo calls").hasValue(0);
            assertThat(channel.maps).as("map calls").hasValue(0);
            assertThat(channel.isOpen())
                    .as("open after the copy and the test's own try")
                    .isFalse();
        }
    }
}
