package io.zerocopy.benchmarks.defaults;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.Data;
import io.zerocopy.benchmarks.Median;
import io.zerocopy.benchmarks.Sinks;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The runs behind the library's default constants (docs/defaults.md): the buffered strategy's
 * buffer size, the size from which mmap is chosen when the kernel has no path, and buffered
 * against {@code transferFrom} for socket to file. Every comparison is interleaved and reports
 * medians. Run it on a quiet machine:
 * {@code java -cp zerocopy-benchmarks/target/benchmarks.jar io.zerocopy.benchmarks.defaults.MeasureDefaults}
 */
public final class MeasureDefaults {
    private static final int RUNS = 7;

    private MeasureDefaults() {}

    /** Stands in for a monitoring or counting wrapper: hands every buffer on to a socket. */
    private static final class Delegating implements WritableByteChannel {
        private final WritableByteChannel delegate;

        Delegating(WritableByteChannel delegate) {
            this.delegate = delegate;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return delegate.write(src);
        }

        @Override
        public boolean isOpen() {
            return delegate.isOpen();
        }

        @Override
        public void close() {}
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("zerocopy-defaults");
        System.out.printf(
                Locale.ROOT,
                "Java %s, %s %s, %d cores; medians of %d interleaved runs%n",
                Runtime.version(),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                Runtime.getRuntime().availableProcessors(),
                RUNS);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            bufferSizes(dir, server);
            mappingThreshold(dir, server);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static void bufferSizes(Path dir, ServerSocketChannel server) throws Exception {
        Path file = Data.source(dir, 256L << 20);
        Path copy = dir.resolve("copy");
        String[] names = {"buffered 64 KiB", "buffered 128 KiB", "buffered 256 KiB", "buffered 1 MiB", "transferFrom"};
        int[] sizes = {64 << 10, 128 << 10, 256 << 10, 1 << 20, 0};
        double[][] send = new double[names.length][RUNS];
        double[][] receive = new double[names.length][RUNS];
        for (int run = -1; run < RUNS; run++) {
            for (int k = 0; k < names.length; k++) {
                TransferOptions.Builder options = TransferOptions.builder();
                TransferOptions transferOptions = (sizes[k] == 0
                                ? options.strategy("transferFrom")
                                : options.strategy("buffered").bufferSize(sizes[k]))
                        .build();
                if (sizes[k] > 0) {
                    double ms = fileToSocket(server, file, transferOptions);
                    if (run >= 0) {
                        send[k][run] = ms;
                    }
                }
                double ms = socketToFile(server, file, copy, transferOptions);
                if (run >= 0) {
                    receive[k][run] = ms;
                }
            }
        }
        System.out.println("\n256 MiB, cached file -> loopback socket (Nagle on), and loopback socket -> file:");
        System.out.printf(Locale.ROOT, "%-18s %16s %16s%n", "", "file->socket ms", "socket->file ms");
        for (int k = 0; k < names.length; k++) {
            System.out.printf(
                    Locale.ROOT,
                    "%-18s %16s %16.1f%n",
                    names[k],
                    sizes[k] == 0 ? "-" : String.format(Locale.ROOT, "%.1f", Median.of(send[k])),
                    Median.of(receive[k]));
        }
    }

    private static double fileToSocket(ServerSocketChannel server, Path file, TransferOptions transferOptions)
            throws Exception {
        CompletableFuture<Long> drained = CompletableFuture.supplyAsync(() -> {
            try (SocketChannel in = server.accept()) {
                drain(in);
                return System.nanoTime();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long start = System.nanoTime();
        try (SocketChannel out = SocketChannel.open(server.getLocalAddress())) {
            Transfers.copy(file, out, transferOptions);
        }
        return (drained.get() - start) / 1e6;
    }

    private static double socketToFile(
            ServerSocketChannel server, Path file, Path copy, TransferOptions transferOptions) throws Exception {
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try (SocketChannel out = server.accept()) {
                Transfers.copy(file, out);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long start = System.nanoTime();
        try (SocketChannel in = SocketChannel.open(server.getLocalAddress());
                FileChannel out = FileChannel.open(
                        copy,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            Transfers.copy(in, out, transferOptions);
        }
        double ms = (System.nanoTime() - start) / 1e6;
        sent.get();
        return ms;
    }

    private static void mappingThreshold(Path dir, ServerSocketChannel server) throws Exception {
        TransferOptions mmap = TransferOptions.builder().strategy("mmap").build();
        TransferOptions buffered =
                TransferOptions.builder().strategy("buffered").build();
        Pipe pipe = Pipe.open();
        try (SocketChannel out = SocketChannel.open(server.getLocalAddress());
                SocketChannel in = server.accept()) {
            background(() -> drain(in));
            background(() -> drain(pipe.source()));
            WritableByteChannel[] targets = {Sinks.readingEveryByte(), new Delegating(out), pipe.sink()};
            String[] labels = {"reads every byte", "delegates to socket", "JDK pipe"};
            System.out.println("\nmmap vs buffered where the kernel has no path; per-transfer time in microseconds:");
            System.out.printf(
                    Locale.ROOT,
                    "%-20s %9s %12s %12s %14s%n",
                    "target",
                    "size",
                    "mmap us",
                    "buffered us",
                    "mmap/buffered");
            for (long size : new long[] {64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20}) {
                Path file = Data.source(dir, size);
                int iterations = (int) Math.max(5, (256L << 20) / size);
                for (int t = 0; t < targets.length; t++) {
                    double[] m = new double[RUNS];
                    double[] b = new double[RUNS];
                    for (int run = -1; run < RUNS; run++) {
                        double mm = perTransfer(mmap, file, targets[t], iterations);
                        double bb = perTransfer(buffered, file, targets[t], iterations);
                        if (run >= 0) {
                            m[run] = mm;
                            b[run] = bb;
                        }
                    }
                    System.out.printf(
                            Locale.ROOT,
                            "%-20s %6d KiB %12.1f %12.1f %14.2f%n",
                            labels[t],
                            size >> 10,
                            Median.of(m),
                            Median.of(b),
                            Median.of(m) / Median.of(b));
                }
                Files.delete(file);
            }
            pipe.sink().close();
        }
    }

    private static double perTransfer(
            TransferOptions transferOptions, Path file, WritableByteChannel target, int iterations) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            Transfers.copy(file, target, transferOptions);
        }
        return (System.nanoTime() - start) / 1e3 / iterations;
    }

    interface IoRunnable {
        void run() throws IOException;
    }

    private static void background(IoRunnable task) {
        Thread t = new Thread(() -> {
            try {
                task.run();
            } catch (IOException ignored) {
                // the peer closed: the measurement is over
            }
        });
        t.setDaemon(true);
        t.start();
    }

    private static void drain(ReadableByteChannel in) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        while (in.read(buffer) >= 0) {
            buffer.clear();
        }
    }
}
