package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.FileRegion;
import io.zerocopy.Transfer;
import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link Transfer} may be advanced by any thread, one at a time, and closed by yet another: an
 * event loop hands a connection over, a server's reaper closes it. Run against the packaged jar, so
 * that a JDK 22+ runs the Java 22 part (its mappings among it). Each strategy forced, and the
 * default ({@code ""}), over a non-blocking loopback socket with small buffers, so that the transfer
 * takes many advances and mapped windows.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AcrossThreadsTest {
    private static final long SEED = Seeds.announce(AcrossThreadsTest.class);
    private static final int FILE_SIZE = 4 << 20;
    /** Small windows: many of them are mapped on one thread and written or released on another. */
    private static final long WINDOW = 256 << 10;

    @TempDir
    Path dir;

    private ExecutorService first;
    private ExecutorService second;
    private ExecutorService third;

    @BeforeEach
    void threads() {
        first = Executors.newSingleThreadExecutor();
        second = Executors.newSingleThreadExecutor();
        third = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void stopThreads() {
        first.shutdownNow();
        second.shutdownNow();
        third.shutdownNow();
    }

    @ParameterizedTest(name = "strategy ''{0}''")
    @ValueSource(strings = {"", "transferTo", "mmap", "buffered"})
    void advance_alternatingBetweenTwoThreads_sendsEveryByte(String strategy) throws Exception {
        byte[] content = TestFiles.randomBytes(FILE_SIZE, SEED);
        Path path = TestFiles.write(dir.resolve("body"), content);
        byte[] head = "HTTP/1.1 200 OK\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        // the receiver reads nothing until the first advance has filled the buffers and stopped, so
        // the rest goes on the other thread too, however fast the receiver then drains
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel socket = nonBlocking(receiver);
                FileChannel file = FileChannel.open(path, StandardOpenOption.READ);
                Selector selector = Selector.open()) {
            SelectionKey key = socket.register(selector, SelectionKey.OP_WRITE);
            Transfer transfer = Transfers.open(
                    FileRegion.of(file, 0, FILE_SIZE).withPrefix(ByteBuffer.wrap(head)), socket, options(strategy));
            int advances = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!transfer.isDone() && System.nanoTime() < deadline) {
                ExecutorService on = advances++ % 2 == 0 ? first : second;
                long moved = on.submit(transfer::advance).get(30, TimeUnit.SECONDS);
                if (advances == 1) {
                    assertThat(transfer.isDone())
                            .as("done after the first advance")
                            .isFalse();
                    receiver.openGate();
                }
                if (moved == 0 && !transfer.isDone()) {
                    key.interestOps(transfer.interestOps());
                    selector.select(1000);
                    selector.selectedKeys().clear();
                }
            }
            assertThat(transfer.isDone()).as("done within the deadline").isTrue();
            assertThat(advances).as("advances, half of them on each thread").isGreaterThanOrEqualTo(2);
            if (!strategy.isEmpty()) {
                assertThat(transfer.result().strategy()).isEqualTo(strategy);
            }
            socket.shutdownOutput();
            assertThat(receiver.received().bytes()).isEqualTo(head.length + FILE_SIZE);
            byte[] sent = new byte[head.length + FILE_SIZE];
            System.arraycopy(head, 0, sent, 0, head.length);
            System.arraycopy(content, 0, sent, head.length, FILE_SIZE);
            assertThat(receiver.received().crc32c()).isEqualTo(TestFiles.crc32c(sent));
        }
    }

    /** Closed on a third thread part-way, a transfer releases what it holds: no mapping of the file is left. */
    @ParameterizedTest(name = "strategy ''{0}''")
    @ValueSource(strings = {"", "transferTo", "mmap", "buffered"})
    void close_onAThirdThreadPartWay_releasesItsWindow(String strategy) throws Exception {
        Path path = TestFiles.write(dir.resolve("body"), TestFiles.randomBytes(FILE_SIZE, SEED));
        try (LoopbackReceiver receiver = LoopbackReceiver.gated(LoopbackReceiver.SMALL_BUFFER);
                SocketChannel socket = nonBlocking(receiver)) {
            Transfer transfer = first.submit(() -> Transfers.open(path, socket, options(strategy)))
                    .get(30, TimeUnit.SECONDS);
            long moved = 0;
            for (int i = 0; i < 4; i++) {
                moved += (i % 2 == 0 ? first : second).submit(transfer::advance).get(30, TimeUnit.SECONDS);
            }
            assertThat(moved).as("bytes moved before the socket filled").isPositive();
            assertThat(transfer.isDone())
                    .as("a gated receiver holds the transfer part-way")
                    .isFalse();

            third.submit(run(transfer::close)).get(30, TimeUnit.SECONDS);

            assertThat(ProcSelf.mappingsUnder(dir))
                    .as("mappings of the file left after close")
                    .isZero();
            assertThatThrownBy(transfer::advance).isInstanceOf(IllegalStateException.class);
            receiver.openGate();
        }
    }

    private static TransferOptions options(String strategy) {
        TransferOptions.Builder options = TransferOptions.builder().mappedWindow(WINDOW);
        return strategy.isEmpty() ? options.build() : options.strategy(strategy).build();
    }

    private static SocketChannel nonBlocking(LoopbackReceiver receiver) throws Exception {
        SocketChannel socket = receiver.connectChannel();
        socket.setOption(StandardSocketOptions.SO_SNDBUF, LoopbackReceiver.SMALL_BUFFER);
        socket.configureBlocking(false);
        return socket;
    }

    private static Callable<Void> run(ThrowingRunnable r) {
        return () -> {
            r.run();
            return null;
        };
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
