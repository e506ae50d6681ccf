package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zerocopy.FileRegion;
import io.zerocopy.OpenFile;
import io.zerocopy.Transfer;
import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target for the small send, the part of the native file path that only a JDK socket takes
 * (this module's native-access run, Java 22+): a file of up to 100 KB, across the one-read limits
 * (64 KiB; 80 KiB with a prefix), sent into a real loopback socket by {@code copy(Path)}, by
 * {@code copy(FileRegion)} with or without a prefix, or by the {@link Transfer} handle of either,
 * driven through a selector on a non-blocking socket. The input picks the strategy (forced,
 * excluded or none), the buffer size, the socket's send buffer, the peer's read sizes, and whether
 * the peer closes after N bytes, with a reset or without. Whatever happens: the peer receives a
 * prefix of the model's bytes; with a peer that reads to the end the send succeeds, returns the
 * model's length and the peer holds every byte; a failure, only after the peer closed, is a
 * {@link TransferException} counting at least what the peer received and at most the model; the
 * caller's file stays open at its position and no descriptor is left open. {@code docs/fuzzing.md}
 * says how to fuzz it.
 */
class NativeSendFuzzTest {
    private static final String[] CHOICES = {"", "native", "exclude native", "buffered", "transferTo"};
    private static final int[] SEND_BUFFERS = {0, 2048, 16 * 1024};
    private static final long DEADLINE_SECONDS = 20;
    private static final int MAX_PREFIX = 300;

    @TempDir
    static Path dir;

    @RegisterExtension
    final NoDescriptorLeft noDescriptorLeft = new NoDescriptorLeft(ThreadKind.PLATFORM);

    enum Verb {
        COPY_PATH,
        COPY_REGION,
        OPEN_PATH,
        OPEN_REGION;

        boolean handle() {
            return this == OPEN_PATH || this == OPEN_REGION;
        }

        boolean path() {
            return this == COPY_PATH || this == OPEN_PATH;
        }
    }

    @FuzzTest(maxDuration = "10m")
    void send_nativeFileIntoSocket(FuzzedDataProvider data) throws Exception {
        Verb verb = data.pickValue(Verb.values());
        byte[] content = new byte[data.consumeInt(0, 100_000)];
        new Random(content.length).nextBytes(content);
        String choice = data.pickValue(CHOICES);
        TransferOptions.Builder options = TransferOptions.builder().bufferSize(data.consumeInt(1, 128 * 1024));
        if (choice.startsWith("exclude ")) {
            options.exclude(choice.substring(8));
        } else if (!choice.isEmpty()) {
            options.strategy(choice);
        }
        int position = verb.path() ? 0 : data.consumeInt(0, content.length);
        int count = verb.path() ? content.length : data.consumeInt(0, content.length - position);
        int sendBuffer = data.pickValue(SEND_BUFFERS);
        int readSize = data.consumeInt(1, 64 * 1024);
        long closeAfter = data.consumeBoolean() ? data.consumeLong(0, MAX_PREFIX + count) : -1;
        boolean reset = data.consumeBoolean();
        byte[] prefix = verb.path() ? new byte[0] : data.consumeBytes(MAX_PREFIX); // last: the rest of the input

        byte[] model = new byte[prefix.length + count];
        System.arraycopy(prefix, 0, model, 0, prefix.length);
        System.arraycopy(content, position, model, prefix.length, count);
        Path path = Files.write(Files.createTempFile(dir, "source", ".bin"), content);
        try (Connection connection = Connection.open();
                OpenFile opened = OpenFile.open(path)) {
            assertThat(opened.openedNatively())
                    .as("opened natively (this run enables native access)")
                    .isTrue();
            FileChannel file = opened.channel();
            file.position(content.length / 2);
            SocketChannel near = connection.near();
            if (sendBuffer > 0) {
                near.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
            }
            CompletableFuture<byte[]> received = peer(connection.far(), readSize, closeAfter, reset);
            FileRegion region = FileRegion.of(file, position, count).withPrefix(ByteBuffer.wrap(prefix));
            long moved = -1;
            TransferException failure = null;
            try {
                moved = verb.handle()
                        ? drive(
                                near,
                                verb.path()
                                        ? Transfers.open(path, near, options.build())
                                        : Transfers.open(region, near, options.build()))
                        : verb.path()
                                ? Transfers.copy(path, near, options.build())
                                : Transfers.copy(region, near, options.build());
            } catch (TransferException e) {
                failure = e;
            } finally {
                near.close(); // the peer then reads the end of the stream
            }
            byte[] got = received.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            assertThat(got).as("what the peer received").isEqualTo(Arrays.copyOf(model, got.length));
            if (failure == null) {
                assertThat(moved).isEqualTo(model.length);
                if (closeAfter < 0) {
                    assertThat(got).hasSize(model.length);
                }
            } else {
                assertThat(closeAfter)
                        .as("failed with a peer that reads to the end: %s", failure)
                        .isNotNegative();
                assertThat(failure.bytesTransferred())
                        .as("count in %s", failure)
                        .isBetween((long) got.length, (long) model.length);
            }
            assertThat(file.isOpen()).as("the caller's file open").isTrue();
            assertThat(file.position()).as("the caller's file position").isEqualTo(content.length / 2);
        } finally {
            Files.delete(path);
        }
    }

    /** Advances a handle on a non-blocking socket whenever the selector says it may, to its end. */
    private static long drive(SocketChannel near, Transfer transfer) throws IOException {
        near.configureBlocking(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        try (transfer;
                Selector selector = Selector.open()) {
            SelectionKey key = near.register(selector, 0);
            while (!transfer.isDone()) {
                transfer.advance();
                if (!transfer.isDone()) {
                    key.interestOps(transfer.interestOps());
                    selector.select(100);
                }
                if (System.nanoTime() - deadline > 0) {
                    fail("no end after %d s: %s", DEADLINE_SECONDS, transfer);
                }
            }
            return transfer.bytesTransferred();
        }
    }

    /**
     * The peer on a thread of its own: reads in {@code readSize} steps until the end of the stream, or
     * until it has {@code closeAfter} bytes (when not negative), then closes, with a reset if asked.
     */
    private static CompletableFuture<byte[]> peer(SocketChannel far, int readSize, long closeAfter, boolean reset) {
        CompletableFuture<byte[]> done = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    ByteArrayOutputStream got = new ByteArrayOutputStream();
                    try (far) {
                        ByteBuffer buffer = ByteBuffer.allocate(readSize);
                        while (closeAfter < 0 || got.size() < closeAfter) {
                            int want = closeAfter < 0 ? readSize : (int) Math.min(readSize, closeAfter - got.size());
                            int n = far.read(buffer.clear().limit(want));
                            if (n < 0) {
                                break;
                            }
                            got.write(buffer.array(), 0, n);
                        }
                        if (reset) {
                            far.setOption(StandardSocketOptions.SO_LINGER, 0);
                        }
                        done.complete(got.toByteArray());
                    } catch (Throwable t) {
                        done.completeExceptionally(t);
                    }
                },
                "fuzz-peer");
        thread.setDaemon(true);
        thread.start();
        return done;
    }
}
