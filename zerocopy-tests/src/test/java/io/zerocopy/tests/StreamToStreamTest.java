package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code copy(InputStream, OutputStream)} between sockets, files and byte arrays. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamToStreamTest {
    private static final long SEED = Seeds.announce(StreamToStreamTest.class);

    @TempDir
    Path dir;

    static Stream<Arguments> sizes() {
        return LongStream.of(TestFiles.SIZES).mapToObj(size -> Arguments.of(size, SEED));
    }

    @ParameterizedTest(name = "{0} bytes (seed {1})")
    @MethodSource("sizes")
    void copy_socketInputStreamToFileOutputStream(long size, long seed) throws Exception {
        byte[] data = TestFiles.randomBytes((int) size, Seeds.derive(seed, size));
        Path file = dir.resolve("target");
        RecordingListener listener = new RecordingListener();
        long copied;
        try (LoopbackSender sender = LoopbackSender.toSocket(data);
                FileOutputStream out = new FileOutputStream(file.toFile())) {
            Socket socket = sender.socket();
            assertThat(socket.getChannel()).as("a plain socket").isNull();
            InputStream in = socket.getInputStream();

            copied = Transfers.copy(
                    in, out, TransferOptions.builder().listener(listener).build());

            sender.awaitSent();
            assertThat(socket.isClosed()).as("socket closed by copy").isFalse();
            assertThat(in.read()).as("input at end of stream").isEqualTo(-1);
            assertThat(out.getChannel().position()).as("file position").isEqualTo(size);
        }
        assertThat(copied).isEqualTo(size);
        byte[] actual = Files.readAllBytes(file);
        assertThat(actual.length).isEqualTo(data.length);
        assertThat(Arrays.mismatch(actual, data)).as("first differing byte").isEqualTo(-1);
        assertThat(listener.strategy()).as("no kernel path from a stream").isEqualTo("buffered");
    }

    @ParameterizedTest(name = "{0} bytes (seed {1})")
    @MethodSource("sizes")
    void copy_byteArrayStreams(long size, long seed) throws Exception {
        byte[] data = TestFiles.randomBytes((int) size, Seeds.derive(seed, size));
        ByteArrayInputStream in = new ByteArrayInputStream(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RecordingListener listener = new RecordingListener();

        long copied = Transfers.copy(
                in, out, TransferOptions.builder().listener(listener).build());

        assertThat(copied).isEqualTo(size);
        assertThat(in.available()).as("input consumed").isZero();
        assertThat(Arrays.mismatch(out.toByteArray(), data))
                .as("first differing byte")
                .isEqualTo(-1);
        assertThat(listener.strategy()).isEqualTo("buffered");
        assertThat(listener.result().bytesTransferred()).isEqualTo(size);
    }

    @ParameterizedTest(name = "{0} bytes (seed {1})")
    @MethodSource("sizes")
    void copy_fileInputStreamToFileOutputStream(long size, long seed) throws Exception {
        long caseSeed = Seeds.derive(seed, size);
        byte[] data = TestFiles.randomBytes((int) size, caseSeed);
        Path source = TestFiles.write(dir.resolve("source"), data);
        Path target = dir.resolve("target");
        // Read part of the input first: the copy starts where the stream stands.
        int skip = size == 0 ? 0 : new Random(caseSeed).nextInt((int) Math.min(size, 10_000) + 1);
        RecordingListener listener = new RecordingListener();
        long copied;
        try (FileInputStream in = new FileInputStream(source.toFile());
                FileOutputStream out = new FileOutputStream(target.toFile())) {
            assertThat(in.readNBytes(skip)).hasSize(skip);

            copied = Transfers.copy(
                    in, out, TransferOptions.builder().listener(listener).build());

            assertThat(in.getChannel().position())
                    .as("input position advanced as if read")
                    .isEqualTo(size);
            assertThat(in.read()).as("input at end of file").isEqualTo(-1);
            assertThat(out.getChannel().position()).as("output position").isEqualTo(size - skip);
        }
        assertThat(copied).isEqualTo(size - skip);
        byte[] actual = Files.readAllBytes(target);
        byte[] expected = Arrays.copyOfRange(data, skip, data.length);
        assertThat(actual.length).isEqualTo(expected.length);
        assertThat(Arrays.mismatch(actual, expected)).as("first differing byte").isEqualTo(-1);
        // Two files: Linux copies between them in the kernel.
        assertThat(listener.strategy()).as("strategy that ran").isEqualTo("transferTo");
        assertThat(listener.expectedBytes())
                .as("the size is known from the file")
                .isEqualTo(size - skip);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forcedStrategies")
    void copy_fileInputStreamForcedStrategy(String strategy) throws Exception {
        long seed = Seeds.derive(SEED, strategy.hashCode());
        byte[] data = TestFiles.randomBytes((1 << 20) + 3, seed);
        Path source = TestFiles.write(dir.resolve("source"), data);
        Path target = dir.resolve("target");
        RecordingListener listener = new RecordingListener();
        TransferOptions options =
                TransferOptions.builder().strategy(strategy).listener(listener).build();
        try (FileInputStream in = new FileInputStream(source.toFile());
                FileOutputStream out = new FileOutputStream(target.toFile())) {
            assertThat(Transfers.copy(in, out, options)).isEqualTo(data.length);
            assertThat(in.getChannel().position()).as("input position").isEqualTo(data.length);
            assertThat(out.getChannel().position()).as("output position").isEqualTo(data.length);
        }
        assertThat(Arrays.mismatch(Files.readAllBytes(target), data))
                .as("first differing byte")
                .isEqualTo(-1);
        assertThat(listener.strategy()).isEqualTo(strategy);
    }

    static Stream<Arguments> forcedStrategies() {
        // transferFrom declines file sources (FileToFileTest)
        return Stream.of("transferTo", "mmap", "buffered").map(name -> Arguments.of(name));
    }
}
