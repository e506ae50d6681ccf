package io.zerocopy.tests;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferResult;
import io.zerocopy.Transfers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Run by {@link DirectMemoryBudgetTest} in a JVM of its own with a small direct memory limit: 64
 * transfers of 1 MiB from a file to 64 loopback connections at once, on platform threads and (Java
 * 21+) on virtual threads, every one checked by CRC32C. On platform threads the transfers start one
 * after another, each holding still in its listener after its first step until all have started,
 * so that the first ones hold the budget's buffers while the later ones are chosen. With
 * {@code other-kinds} it also copies socket to file, file to a wrapper channel and socket to socket.
 * Prints one {@code result} line per transfer (phase, strategy, reason); any failure ends the JVM
 * with an exception (a non-zero exit).
 */
final class DirectMemoryMain {
    static final int TRANSFERS = 64;
    static final int SIZE = 1 << 20;
    private static final long WAIT_SECONDS = 60;

    private DirectMemoryMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        boolean otherKinds = args.length > 2 && args[2].equals("other-kinds");
        byte[] content = TestFiles.randomBytes(SIZE, seed);
        Path file = TestFiles.write(dir.resolve("source"), content);
        long crc = TestFiles.crc32c(content);

        ExecutorService platform = Executors.newFixedThreadPool(TRANSFERS);
        try {
            fileToSockets("platform", file, crc, platform, true);
        } finally {
            platform.shutdownNow();
        }
        ExecutorService virtual = virtualThreads();
        if (virtual != null && !otherKinds) {
            try {
                fileToSockets("virtual", file, crc, virtual, false);
            } finally {
                virtual.shutdownNow();
            }
        }
        if (otherKinds) {
            otherKinds(dir, file, content, crc);
        }
        System.out.println("done");
    }

    /** {@link #TRANSFERS} copies of {@code file} to loopback connections at once, each on a thread of {@code threads}. */
    private static void fileToSockets(String phase, Path file, long crc, ExecutorService threads, boolean oneByOne)
            throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (Receiver receiver = new Receiver(TRANSFERS)) {
            receiver.start();
            List<CompletableFuture<TransferResult>> results = new ArrayList<>();
            for (int i = 0; i < TRANSFERS; i++) {
                SocketChannel channel = receiver.clients.get(i);
                CompletableFuture<Void> firstStep = new CompletableFuture<>();
                CompletableFuture<TransferResult> completed = new CompletableFuture<>();
                TransferOptions options = TransferOptions.builder()
                        .listener(new TransferListener() {
                            @Override
                            public void onProgress(long bytesSoFar) {
                                firstStep.complete(null);
                                await(gate); // holds whatever this transfer holds until every transfer started
                            }

                            @Override
                            public void onComplete(TransferResult result) {
                                completed.complete(result);
                            }
                        })
                        .build();
                CompletableFuture<TransferResult> result = CompletableFuture.supplyAsync(
                        () -> {
                            try (channel) {
                                long sent = Transfers.copy(file, (WritableByteChannel) channel, options);
                                if (sent != SIZE) {
                                    throw new AssertionError(phase + ": sent " + sent + " of " + SIZE);
                                }
                                return completed.getNow(null);
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        },
                        threads);
                results.add(result);
                if (oneByOne) {
                    CompletableFuture.anyOf(firstStep, result).get(WAIT_SECONDS, TimeUnit.SECONDS);
                }
            }
            gate.countDown();
            for (CompletableFuture<TransferResult> result : results) {
                print(phase, result.get(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            receiver.check(SIZE, crc);
        }
    }

    /** Socket to file, file to a wrapper channel and socket to socket: transfers that take a buffer if they can. */
    private static void otherKinds(Path dir, Path file, byte[] content, long crc) throws Exception {
        TransferOptions options =
                TransferOptions.builder().listener(new Results("other-kinds")).build();
        try (Receiver sockets = new Receiver(2);
                FileChannel target = FileChannel.open(
                        dir.resolve("from-socket"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            SocketChannel toFile = sockets.accepted.get(0);
            try (SocketChannel sender = sockets.clients.get(0)) {
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                    try {
                        Transfers.copy(
                                file,
                                (WritableByteChannel) sender,
                                TransferOptions.builder()
                                        .listener(new Results("other-kinds"))
                                        .build());
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                Transfers.copy(toFile, SIZE, target, options);
                sending.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            if (TestFiles.crc32c(dir.resolve("from-socket")) != crc) {
                throw new AssertionError("socket to file: the file's CRC32C differs");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Transfers.copy(file, Channels.newChannel(out), options);
        if (TestFiles.crc32c(out.toByteArray()) != crc) {
            throw new AssertionError("file to a wrapper channel: the CRC32C differs");
        }
        try (Receiver in = new Receiver(1);
                Receiver out2 = new Receiver(1)) {
            out2.start();
            SocketChannel from = in.accepted.get(0);
            try (SocketChannel feeding = in.clients.get(0);
                    SocketChannel relayed = out2.clients.get(0)) {
                CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> {
                    try (feeding) {
                        ByteBuffer b = ByteBuffer.wrap(content);
                        while (b.hasRemaining()) {
                            feeding.write(b);
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                Transfers.copy(from, relayed, options);
                feed.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            out2.check(SIZE, crc);
        }
    }

    /** Prints the result of every transfer it observes. */
    private static final class Results implements TransferListener {
        private final String phase;

        Results(String phase) {
            this.phase = phase;
        }

        @Override
        public void onComplete(TransferResult result) {
            print(phase, result);
        }
    }

    private static synchronized void print(String phase, TransferResult result) {
        System.out.println(
                "result " + phase + " " + result.strategy() + " " + result.bytesTransferred() + " " + result.reason());
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService)
                    Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null; // before Java 21
        }
    }

    /**
     * {@code count} loopback connections: blocking clients to write to, and accepted ends that,
     * once {@link #start()}ed, one thread reads with a single 64 KiB direct buffer, so that the
     * receivers' own direct memory stays small (or that the program reads itself).
     */
    static final class Receiver implements AutoCloseable {
        final List<SocketChannel> clients = new ArrayList<>();
        final List<SocketChannel> accepted = new ArrayList<>();
        private final long[] bytes;
        private final CRC32C[] crcs;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Receiver(int count) throws IOException {
            bytes = new long[count];
            crcs = new CRC32C[count];
            try (ServerSocketChannel server = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), count)) {
                for (int i = 0; i < count; i++) {
                    clients.add(SocketChannel.open(server.getLocalAddress()));
                    accepted.add(server.accept());
                    crcs[i] = new CRC32C();
                }
            }
        }

        /** Starts reading every accepted end to end of stream, on one thread. */
        void start() {
            Thread reader = new Thread(this::readAll, "receiver");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits until every accepted end reached end of stream and checks each arrived whole. */
        void check(long size, long crc) throws Exception {
            done.get(WAIT_SECONDS, TimeUnit.SECONDS);
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != size || crcs[i].getValue() != crc) {
                    throw new AssertionError("connection " + i + " received " + bytes[i] + " bytes with CRC32C "
                            + crcs[i].getValue() + ", expected " + size + " with " + crc);
                }
            }
        }

        private void readAll() {
            ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
            try (Selector selector = Selector.open()) {
                for (int i = 0; i < accepted.size(); i++) {
                    accepted.get(i).configureBlocking(false).register(selector, SelectionKey.OP_READ, i);
                }
                int open = accepted.size();
                while (open > 0) {
                    selector.select(1000);
                    for (SelectionKey key : selector.selectedKeys()) {
                        int i = (Integer) key.attachment();
                        buffer.clear();
                        int n = accepted.get(i).read(buffer);
                        if (n < 0) {
                            key.cancel();
                            open--;
                        } else {
                            buffer.flip();
                            crcs[i].update(buffer);
                            bytes[i] += n;
                        }
                    }
                    selector.selectedKeys().clear();
                }
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }

        @Override
        public void close() throws IOException {
            for (SocketChannel c : clients) {
                c.close();
            }
            for (SocketChannel c : accepted) {
                c.close();
            }
        }
    }
}
