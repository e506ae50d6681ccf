package io.zerocopy.benchmarks.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.zerocopy.TransferException;
import io.zerocopy.TruncatedSourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bare-calls floor ({@link IoUring#plainSender()}) over a loopback connection: the bytes that
 * arrive are the file's, and a missing or short file fails before anything is sent. Runs only in a
 * build with {@code -Puring}, which compiles it (Java 22+).
 */
class PlainSenderTest {
    private static final long SEED = Long.getLong("zerocopy.test.seed", 31L);

    @TempDir
    Path dir;

    private UringSender sender;
    private Loopback loopback;
    private SocketChannel socket;

    @BeforeEach
    void connect() throws IOException {
        String refusal = IoUring.plainRefusal();
        assumeTrue(refusal == null, () -> "bare calls not runnable here: " + refusal);
        sender = IoUring.plainSender();
        loopback = new Loopback();
        socket = loopback.socket;
    }

    @AfterEach
    void close() throws IOException {
        if (loopback != null) {
            loopback.close();
        }
    }

    @Test
    void send_wholeFiles_bytesArriveUnchanged() throws Exception {
        Random random = new Random(SEED);
        int[] sizes = {4096, 1, 0, 64 * 1024, 4095};
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Path[] files = new Path[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            byte[] content = new byte[sizes[i]];
            random.nextBytes(content);
            files[i] = Files.write(dir.resolve("f" + i), content);
            expected.write(content);
        }
        CompletableFuture<byte[]> received = loopback.receive(expected.size());
        for (int i = 0; i < sizes.length; i++) {
            assertThat(sender.send(files[i], sizes[i], socket))
                    .as("size %d", sizes[i])
                    .isEqualTo(sizes[i]);
        }
        assertThat(received.get(30, TimeUnit.SECONDS)).as("seed %d", SEED).isEqualTo(expected.toByteArray());
    }

    @Test
    void send_missingOrShortFile_failsWithNothingSent() throws Exception {
        assertThatThrownBy(() -> sender.send(dir.resolve("missing"), 10, socket))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("open")
                .hasMessageContaining("errno 2");
        Path shorter = Files.write(dir.resolve("shorter"), new byte[100]);
        assertThatThrownBy(() -> sender.send(shorter, 4096, socket))
                .isInstanceOfSatisfying(TruncatedSourceException.class, e -> {
                    assertThat(e.bytesTransferred()).isZero();
                    assertThat(e.actualSize()).isEqualTo(100);
                });
        assertThatThrownBy(() -> sender.send(shorter, 64 * 1024 + 1, socket))
                .isInstanceOf(IllegalArgumentException.class);
        loopback.assertNothingMoreArrives();
    }
}
