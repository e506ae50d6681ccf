package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.FileRegion;
import io.zerocopy.Transfer;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One selector thread serves 1,000 non-blocking loopback connections with {@link Transfer} handles,
 * each a slice of one shared file, while a few receiver threads read nothing until every transfer
 * has met a full socket, and then read in small pieces for the first half of each connection. Every
 * byte arrives (CRC32C per connection), the loop thread never waits inside the library (its
 * {@code ThreadInfo.getWaitedCount()} does not move; a selector's select is not a wait), and no
 * descriptor is left behind.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SelectorLoopTest {
    private static final long SEED = Seeds.announce(SelectorLoopTest.class);

    private static final int CONNECTIONS = 1000;
    private static final int RECEIVER_THREADS = 4;
    private static final int FILE_SIZE = 1 << 20;
    private static final int MIN_SLICE = 256 << 10;
    /** Small socket buffers: every transfer meets a full socket long before its end. */
    private static final int SOCKET_BUFFER = 32 << 10;
    /** What a receiver reads per call in the first half of a connection: slowly at first. */
    private static final int SLOW_READ = 4 << 10;

    @TempDir
    Path dir;

    /** One connection: the slice it carries and what its receiver read. */
    private static final class Connection {
        final long position;
        final int count;
        final long expectedCrc;
        SocketChannel sender;
        SocketChannel receiver;
        Transfer transfer;
        boolean stalled;
        long read;
        final CRC32C crc = new CRC32C();

        Connection(long position, int count, long expectedCrc) {
            this.position = position;
            this.count = count;
            this.expectedCrc = expectedCrc;
        }
    }

    @Test
    void oneSelectorThread_thousandTransfers_everyByteAndNoWaitInsideTheLibrary() throws Exception {
        ProcSelf.openWhatTheJdkKeeps();
        byte[] content = TestFiles.randomBytes(FILE_SIZE, SEED);
        Path path = TestFiles.write(dir.resolve("shared"), content);
        Random random = new Random(Seeds.derive(SEED, 1));
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            int count = MIN_SLICE + random.nextInt(FILE_SIZE - MIN_SLICE);
            long position = random.nextInt(FILE_SIZE - count + 1);
            connections.add(new Connection(position, count, TestFiles.crc32c(content, (int) position, count)));
        }
        int baseline = ProcSelf.openDescriptors();

        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
            connect(connections);
            CountDownLatch allStalled = new CountDownLatch(CONNECTIONS);
            List<CompletableFuture<Void>> receivers = new ArrayList<>();
            for (int r = 0; r < RECEIVER_THREADS; r++) {
                List<Connection> share = connections.subList(
                        r * CONNECTIONS / RECEIVER_THREADS, (r + 1) * CONNECTIONS / RECEIVER_THREADS);
                receivers.add(runOnThread("receiver-" + r, () -> receive(share, allStalled)));
            }
            CompletableFuture<Long> waits = new CompletableFuture<>();
            Thread loop = new Thread(
                    () -> {
                        try {
                            waits.complete(serve(file, connections, allStalled));
                        } catch (Throwable t) {
                            waits.completeExceptionally(t);
                        }
                    },
                    "selector-loop");
            loop.start();

            long waited = waits.get(90, TimeUnit.SECONDS);
            for (CompletableFuture<Void> receiver : receivers) {
                receiver.get(30, TimeUnit.SECONDS);
            }

            assertThat(waited)
                    .as("times the loop thread waited (parked) while serving, seed %d", SEED)
                    .isZero();
            for (int i = 0; i < CONNECTIONS; i++) {
                Connection c = connections.get(i);
                assertThat(c.read)
                        .as("bytes connection %d received (seed %d)", i, SEED)
                        .isEqualTo(c.count);
                assertThat(c.crc.getValue())
                        .as("CRC32C of connection %d (seed %d)", i, SEED)
                        .isEqualTo(c.expectedCrc);
                TransferResult result = c.transfer.result();
                assertThat(result.bytesTransferred()).isEqualTo(c.count);
                assertThat(result.strategy())
                        .as("strategy to a loopback peer")
                        .isEqualTo(TestFiles.defaultFileToSocket(c.count));
            }
        } finally {
            for (Connection c : connections) {
                closeQuietly(c.sender);
                closeQuietly(c.receiver);
            }
        }
        int open = ProcSelf.awaitDescriptorsAtMost(baseline);
        assertThat(open)
                .as("open descriptors after the run: %s", ProcSelf.descriptorTargets())
                .isLessThanOrEqualTo(baseline);
    }

    /** Connects every connection's two ends over 127.0.0.1 with small buffers; both non-blocking. */
    private static void connect(List<Connection> connections) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            server.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), CONNECTIONS);
            for (Connection c : connections) {
                c.sender = SocketChannel.open();
                c.sender.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
                c.sender.connect(server.getLocalAddress());
                c.receiver = server.accept();
                c.sender.configureBlocking(false);
                c.receiver.configureBlocking(false);
            }
        }
    }

    /**
     * The selector loop: opens a transfer per connection and advances each on write readiness
     * until all are done. Returns how often this thread waited (parked) meanwhile.
     */
    private static long serve(FileChannel file, List<Connection> connections, CountDownLatch allStalled)
            throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        try (Selector selector = Selector.open()) {
            for (Connection c : connections) {
                c.transfer = Transfers.open(FileRegion.of(file, c.position, c.count), c.sender);
                c.sender.register(selector, c.transfer.interestOps(), c);
            }
            long waitedBefore = threads.getThreadInfo(id).getWaitedCount();
            int done = 0;
            while (done < connections.size()) {
                selector.select(1000);
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection c = (Connection) key.attachment();
                    c.transfer.advance(); // on a non-blocking socket: until it is full, or done
                    if (c.transfer.isDone()) {
                        key.cancel();
                        c.transfer.close();
                        c.sender.shutdownOutput();
                        done++;
                    } else {
                        key.interestOps(c.transfer.interestOps());
                    }
                    if (!c.stalled) {
                        c.stalled = true;
                        allStalled.countDown();
                    }
                }
                selector.selectedKeys().clear();
            }
            return threads.getThreadInfo(id).getWaitedCount() - waitedBefore;
        }
    }

    /**
     * A receiver thread: reads nothing until every transfer has met a full socket, then reads its
     * share of the connections to end of stream, at most {@link #SLOW_READ} bytes per readiness for
     * the first half of each, then larger reads.
     */
    private static void receive(List<Connection> share, CountDownLatch allStalled) throws Exception {
        if (!allStalled.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("not every transfer met a full socket: " + allStalled.getCount() + " left");
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
        try (Selector selector = Selector.open()) {
            for (Connection c : share) {
                c.receiver.register(selector, SelectionKey.OP_READ, c);
            }
            int open = share.size();
            while (open > 0) {
                selector.select(1000);
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection c = (Connection) key.attachment();
                    buffer.clear().limit(c.read < c.count / 2 ? SLOW_READ : buffer.capacity());
                    int n = c.receiver.read(buffer);
                    if (n < 0) {
                        key.cancel();
                        open--;
                    } else {
                        buffer.flip();
                        c.crc.update(buffer);
                        c.read += n;
                    }
                }
                selector.selectedKeys().clear();
            }
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    private static CompletableFuture<Void> runOnThread(String name, Body body) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        body.run();
                        result.complete(null);
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // the test's outcome is decided already
            }
        }
    }
}
