package io.zerocopy.benchmarks.defaults;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import io.zerocopy.benchmarks.Data;
import io.zerocopy.benchmarks.Median;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A quick side-by-side timing of one file sent to 127.0.0.1: {@code Transfers.copy} (and each
 * strategy forced) against a raw {@code transferTo} loop and the classic 4 KiB read/write loop.
 * Methods run interleaved, in a rotating order; printed are each method's median time and the
 * median of its paired ratios to the raw loop (the ratio within each round, so that a slow moment
 * of the machine weighs on both sides of it). This is a sanity check for the README, not the benchmark suite.
 *
 * <p>Usage: {@code java -cp zerocopy-benchmarks/target/benchmarks.jar io.zerocopy.benchmarks.defaults.SideBySide
 * [size MiB, default 1024] [runs, default 5] [nodelay]}
 */
public final class SideBySide {
    private SideBySide() {}

    interface Sender {
        void send(Path file, SocketChannel socket) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 1024;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        boolean noDelay = args.length > 2 && args[2].equals("nodelay");
        Map<String, Sender> senders = new LinkedHashMap<>();
        senders.put("raw transferTo loop", SideBySide::rawTransferTo);
        senders.put("4 KiB read/write loop", SideBySide::classicLoop);
        senders.put("Transfers.copy (auto)", (f, s) -> Transfers.copy(f, s));
        for (String name : new String[] {"transferTo", "mmap", "buffered"}) {
            TransferOptions forced = TransferOptions.builder().strategy(name).build();
            senders.put("Transfers " + name, (f, s) -> Transfers.copy(f, s, forced));
        }
        List<String> names = new ArrayList<>(senders.keySet());
        Map<String, double[]> times = new LinkedHashMap<>();
        names.forEach(n -> times.put(n, new double[runs]));

        Path dir = Files.createTempDirectory("zerocopy-sbs");
        Path file = Data.source(dir, mib << 20);
        try (ServerSocketChannel receiver = ServerSocketChannel.open()) {
            receiver.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            System.out.printf(
                    Locale.ROOT,
                    "%d MiB over loopback, %d runs, TCP_NODELAY %s, Java %s%n",
                    mib,
                    runs,
                    noDelay ? "on" : "off",
                    Runtime.version());
            for (int run = -1; run < runs; run++) { // run -1 warms up every method
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(Math.floorMod(i + run, names.size()));
                    double ms = once(receiver, file, senders.get(name), noDelay, mib << 20);
                    if (run >= 0) {
                        times.get(name)[run] = ms;
                    }
                }
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        double[] base = times.get("raw transferTo loop");
        System.out.printf(
                Locale.ROOT, "%-24s %10s %8s %12s   %s%n", "method", "median ms", "GB/s", "time vs raw", "runs (ms)");
        for (String name : names) {
            double m = Median.of(times.get(name));
            double[] ratios = new double[runs];
            for (int run = 0; run < runs; run++) {
                ratios[run] = times.get(name)[run] / base[run];
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-24s %10.1f %8.2f %12.2f   %s%n",
                    name,
                    m,
                    (mib << 20) / m / 1e6,
                    Median.of(ratios),
                    Arrays.toString(Arrays.stream(times.get(name))
                            .mapToLong(Math::round)
                            .toArray()));
        }
    }

    private static double once(ServerSocketChannel receiver, Path file, Sender sender, boolean noDelay, long size)
            throws Exception {
        CompletableFuture<long[]> received = drainOne(receiver);
        long start = System.nanoTime();
        try (SocketChannel socket = SocketChannel.open(receiver.getLocalAddress())) {
            socket.socket().setTcpNoDelay(noDelay);
            sender.send(file, socket);
        }
        long[] bytesAndEnd = received.get();
        if (bytesAndEnd[0] != size) {
            throw new IllegalStateException("receiver got " + bytesAndEnd[0] + " bytes, expected " + size);
        }
        return (bytesAndEnd[1] - start) / 1e6;
    }

    /** Accepts one connection and reads it to its end on a new thread: the bytes, then the end's nanoTime. */
    private static CompletableFuture<long[]> drainOne(ServerSocketChannel receiver) {
        CompletableFuture<long[]> result = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try (SocketChannel peer = receiver.accept()) {
                        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
                        long total = 0;
                        for (int n; (n = peer.read(buffer)) >= 0; buffer.clear()) {
                            total += n;
                        }
                        result.complete(new long[] {total, System.nanoTime()});
                    } catch (Throwable e) {
                        result.completeExceptionally(e);
                    }
                },
                "side-by-side-receiver");
        t.setDaemon(true);
        t.start();
        return result;
    }

    /** The JDK alone: transferTo with the largest count, looping over short counts. */
    private static void rawTransferTo(Path file, SocketChannel socket) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = in.size();
            for (long position = 0; position < size; ) {
                position += in.transferTo(position, size - position, socket);
            }
        }
    }

    /** The classic experiment's loop, without its bugs: 4 KiB reads, writes of exactly what was read. */
    private static void classicLoop(Path file, SocketChannel socket) throws IOException {
        byte[] buffer = new byte[4096];
        OutputStream out = socket.socket().getOutputStream();
        try (InputStream in = new FileInputStream(file.toFile())) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
        }
    }
}
