package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code FileChannel} that cannot seek (here over a named pipe, as stdout is under {@code | cat})
 * is a valid target: the library must not ask it for its position.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FifoTargetTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "transferTo", "mmap", "buffered"})
    void copy_toFileChannelOverFifo(String strategy) throws Exception {
        Path fifo = mkfifo();
        byte[] content = TestFiles.randomBytes((3 << 20) + 17, 99);
        Path source = TestFiles.write(dir.resolve("source"), content);
        TransferOptions.Builder options = TransferOptions.builder();
        var copier = (strategy.equals("auto") ? options : options.strategy(strategy)).build();

        CompletableFuture<long[]> read = drain(fifo);
        try (FileChannel out = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
            assertThat(Transfers.copy(source, out, copier)).isEqualTo(content.length);
        }
        assertThat(read.get(30, TimeUnit.SECONDS)).containsExactly(content.length, TestFiles.crc32c(content));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(booleans = {false, true})
    void copy_toFileOutputStreamOverFifo(boolean fromStream) throws Exception {
        Path fifo = mkfifo();
        byte[] content = TestFiles.randomBytes(1 << 20, 98);
        Path source = TestFiles.write(dir.resolve("source"), content);

        CompletableFuture<long[]> read = drain(fifo);
        try (FileOutputStream out = new FileOutputStream(fifo.toFile());
                FileInputStream in = new FileInputStream(source.toFile())) {
            long moved = fromStream ? Transfers.copy(in, out) : Transfers.copy(source, out);
            assertThat(moved).isEqualTo(content.length);
        }
        assertThat(read.get(30, TimeUnit.SECONDS)).containsExactly(content.length, TestFiles.crc32c(content));
    }

    private Path mkfifo() throws IOException, InterruptedException {
        return TestFiles.fifo(dir.resolve("fifo"));
    }

    /** Opens the FIFO for reading on another thread and reads it to end of stream: {count, crc32c}. */
    private static CompletableFuture<long[]> drain(Path fifo) {
        return CompletableFuture.supplyAsync(() -> {
            try (FileChannel in = FileChannel.open(fifo, StandardOpenOption.READ)) {
                ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                CRC32C crc = new CRC32C();
                long count = 0;
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    crc.update(buffer.array(), 0, n);
                    count += n;
                    buffer.clear();
                }
                return new long[] {count, crc.getValue()};
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
