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
 * The io_uring prototype against a real loopback connection: the bytes that arrive are the file's,
 * failures carry what was sent and leave the socket open and the ring usable. Runs only in a build
 * with {@code -Puring}, which compiles the prototype (Java 22+) and sets the flags it needs, and
 * skips where the prototype cannot run (not Linux, io_uring disabled); {@link IoUringRefusalTest}
 * runs in every build.
 */
class IoUringSenderTest {
    private static final long SEED = Long.getLong("zerocopy.test.seed", 29L);

    @TempDir
    Path dir;

    private UringSender sender;
    private Loopback loopback;
    private SocketChannel socket;
    private SocketChannel peer;

    @BeforeEach
    void connect() throws IOException {
        loopback = new Loopback();
        socket = loopback.socket;
        peer = loopback.peer;
    }

    @AfterEach
    void close() throws IOException {
        if (sender != null) {
            sender.close();
        }
        loopback.close();
    }

    private void assumeRunnable() {
        String refusal = IoUring.refusal();
        assumeTrue(refusal == null, () -> "io_uring prototype not runnable here: " + refusal);
        sender = IoUring.sender();
    }

    @Test
    void send_wholeFiles_bytesArriveUnchanged() throws Exception {
        assumeRunnable();
        Random random = new Random(SEED);
        int[] sizes = {4096, 1, 16 * 1024, 0, 64 * 1024, 64 * 1024 + 1, 200_000, 4095};
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Path[] files = new Path[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            byte[] content = new byte[sizes[i]];
            random.nextBytes(content);
            files[i] = Files.write(dir.resolve("f" + i), content);
            expected.write(content);
        }
        CompletableFuture<byte[]> received = receive(expected.size());
        for (int i = 0; i < sizes.length; i++) {
            assertThat(sender.send(files[i], sizes[i], socket))
                    .as("size %d", sizes[i])
                    .isEqualTo(sizes[i]);
        }
        assertThat(received.get(30, TimeUnit.SECONDS)).as("seed %d", SEED).isEqualTo(expected.toByteArray());
    }

    @Test
    void send_sliceOfLargerFile_sendsOnlyTheSlice() throws Exception {
        assumeRunnable();
        byte[] content = randomBytes(10_000);
        Path file = Files.write(dir.resolve("larger"), content);
        CompletableFuture<byte[]> received = receive(4096);
        assertThat(sender.send(file, 4096, socket)).isEqualTo(4096);
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(java.util.Arrays.copyOf(content, 4096));
        assertNothingMoreArrives();
    }

    @Test
    void send_missingFile_failsWithNothingSent_thenTheRingAndSocketStillWork() throws Exception {
        assumeRunnable();
        assertThatThrownBy(() -> sender.send(dir.resolve("missing"), 4096, socket))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("open")
                .hasMessageContaining("errno 2")
                .satisfies(e ->
                        assertThat(((TransferException) e).bytesTransferred()).isZero());
        assertSendsIntact();
    }

    @Test
    void send_fileShorterThanSize_failsAsTruncated_andSendsNothingStale() throws Exception {
        assumeRunnable();
        Path shorter = Files.write(dir.resolve("shorter"), randomBytes(1000));
        assertThatThrownBy(() -> sender.send(shorter, 4096, socket))
                .isInstanceOfSatisfying(TruncatedSourceException.class, e -> {
                    assertThat(e.bytesTransferred()).isZero();
                    assertThat(e.expectedSize()).isEqualTo(4096);
                    assertThat(e.actualSize()).isEqualTo(1000);
                });
        // the next file's bytes must be all that arrives: the cancelled send put nothing on the wire
        assertSendsIntact();
    }

    @Test
    void send_directory_fails_thenTheRingStillWorks() throws Exception {
        assumeRunnable();
        assertThatThrownBy(() -> sender.send(dir, 4096, socket))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("read")
                .hasMessageContaining("errno 21");
        assertSendsIntact();
    }

    @Test
    void send_peerGone_failsWithTheCount_andLeavesTheSocketOpen() throws Exception {
        assumeRunnable();
        peer.setOption(java.net.StandardSocketOptions.SO_LINGER, 0);
        peer.close();
        Path file = Files.write(dir.resolve("body"), randomBytes(64 * 1024));
        TransferException failure = null;
        // a reset reaches the sender after its first segment at the latest: a bounded number of tries
        for (int i = 0; i < 100 && failure == null; i++) {
            try {
                sender.send(file, 64 * 1024, socket);
            } catch (TransferException e) {
                failure = e;
            }
        }
        assertThat(failure).as("a send to a reset peer fails").isNotNull();
        assertThat(failure.getMessage()).containsAnyOf("errno 32", "errno 104");
        assertThat(failure.bytesTransferred()).isBetween(0L, 64L * 1024);
        assertThat(socket.isOpen()).as("the caller's socket is not closed").isTrue();
    }

    @Test
    void send_nonBlockingSocket_isRefused() throws IOException {
        assumeRunnable();
        Path file = Files.write(dir.resolve("small"), randomBytes(10));
        socket.configureBlocking(false);
        assertThatThrownBy(() -> sender.send(file, 10, socket))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blocking");
    }

    /** Sends a fresh file and checks that exactly its bytes arrive next. */
    private void assertSendsIntact() throws Exception {
        byte[] content = randomBytes(5000);
        Path file = Files.write(dir.resolve("after"), content);
        CompletableFuture<byte[]> received = receive(content.length);
        assertThat(sender.send(file, content.length, socket)).isEqualTo(content.length);
        assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo(content);
        assertNothingMoreArrives();
    }

    private void assertNothingMoreArrives() throws IOException {
        loopback.assertNothingMoreArrives();
    }

    private CompletableFuture<byte[]> receive(int count) {
        return loopback.receive(count);
    }

    private byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        new Random(SEED + n).nextBytes(bytes);
        return bytes;
    }
}
