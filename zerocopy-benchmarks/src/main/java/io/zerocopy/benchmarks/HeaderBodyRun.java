package io.zerocopy.benchmarks;

import io.zerocopy.FileRegion;
import io.zerocopy.Transfers;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Header + body against header write then copy, as an HTTP server answers keep-alive requests: a
 * client sends a 1-byte request, the server answers with a 200-byte header and a body from a cached
 * file, the client reads exactly that many bytes and asks again on the same connection. Nagle is on
 * (no {@code TCP_NODELAY}) on both sides, which is where a header sent alone can wait for a delayed
 * ACK. Contenders alternate in rounds; the first round is warm-up and not recorded.
 *
 * <pre>
 * java -cp benchmarks.jar io.zerocopy.benchmarks.HeaderBodyRun ROUNDS [SECONDS_PER_CELL]
 * </pre>
 *
 * Prints one CSV line per cell ({@code size,connections,contender,round,requests,medianUs,p99Us})
 * and then, per size and connection count: median and p99 latency over all recorded requests, the
 * requests that took 10 ms or more, and the median over rounds of headerBody / headerThenCopy
 * (median latency with one connection; seconds per request, the inverse of throughput, with many).
 */
public final class HeaderBodyRun {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int HEADER_BYTES = 200;
    private static final int[] SIZES = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20};
    private static final int MANY = 16;
    private static final int MANY_SIZE = 64 << 10;
    private static final String[] CONTENDERS = {"headerBody", "headerThenCopy"};
    private static final long SLOW_NANOS = 10_000_000L;
    private static final int WARM_UP_REQUESTS = 3;
    private static final int MIN_REQUESTS = 8;

    private HeaderBodyRun() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        double cellSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 0.5;
        Path file = Files.createTempFile("header-body", ".bin");
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        Map<String, List<long[]>> latencies = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        try {
            byte[] bytes = new byte[1 << 20];
            new Random(42).nextBytes(bytes);
            Files.write(file, bytes);
            try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
                source.read(ByteBuffer.allocate(bytes.length), 0); // into the page cache
                System.out.println("size,connections,contender,round,requests,medianUs,p99Us");
                for (int round = 0; round <= rounds; round++) {
                    for (int size : SIZES) {
                        cellPair(threads, source, size, 1, round, cellSeconds, latencies, ratios);
                    }
                    cellPair(threads, source, MANY_SIZE, MANY, round, cellSeconds, latencies, ratios);
                }
            }
        } finally {
            Files.deleteIfExists(file);
            threads.shutdownNow();
        }
        System.out.println(
                "# size,connections,contender,requests,medianUs,p99Us,atLeast10ms,medianRatioHeaderBodyOverHeaderThenCopy");
        for (Map.Entry<String, List<long[]>> e : latencies.entrySet()) {
            long[] all =
                    e.getValue().stream().flatMapToLong(Arrays::stream).sorted().toArray();
            long slow = Arrays.stream(all).filter(v -> v >= SLOW_NANOS).count();
            String key = e.getKey();
            String pair = key.substring(0, key.lastIndexOf(','));
            System.out.printf(
                    Locale.ROOT,
                    "%s,%d,%.1f,%.1f,%d,%.3f%n",
                    key,
                    all.length,
                    quantile(all, 0.5) / 1e3,
                    quantile(all, 0.99) / 1e3,
                    slow,
                    Median.of(ratios.get(pair)));
        }
    }

    /** Both contenders on one size and connection count, in an order that alternates by round. */
    private static void cellPair(
            ExecutorService threads,
            FileChannel source,
            int size,
            int connections,
            int round,
            double seconds,
            Map<String, List<long[]>> latencies,
            Map<String, List<Double>> ratios)
            throws Exception {
        double[] measure = new double[2];
        for (int i = 0; i < 2; i++) {
            int c = (i + round) % 2;
            String key = size + "," + connections + "," + CONTENDERS[c];
            long start = System.nanoTime();
            long[] times = cell(threads, source, size, connections, CONTENDERS[c], seconds);
            double elapsed = System.nanoTime() - start;
            long[] sorted = times.clone();
            Arrays.sort(sorted);
            System.out.printf(
                    Locale.ROOT,
                    "%s,%d,%d,%.1f,%.1f%n",
                    key,
                    round,
                    times.length,
                    quantile(sorted, 0.5) / 1e3,
                    quantile(sorted, 0.99) / 1e3);
            System.out.flush();
            measure[c] = connections == 1 ? quantile(sorted, 0.5) : elapsed / times.length;
            if (round > 0) {
                latencies.computeIfAbsent(key, k -> new ArrayList<>()).add(times);
            }
        }
        if (round > 0) {
            ratios.computeIfAbsent(size + "," + connections, k -> new ArrayList<>())
                    .add(measure[0] / measure[1]);
        }
    }

    /** Request latencies (ns) of {@code connections} keep-alive clients asking for {@code seconds}. */
    private static long[] cell(
            ExecutorService threads, FileChannel source, int size, int connections, String contender, double seconds)
            throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOOPBACK, 0), connections);
            List<Future<?>> servers = new ArrayList<>();
            List<Future<long[]>> clients = new ArrayList<>();
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            for (int i = 0; i < connections; i++) {
                SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                SocketChannel server = listener.accept();
                servers.add(threads.submit(serve(server, source, size, contender)));
                clients.add(threads.submit(ask(client, HEADER_BYTES + size, deadline)));
            }
            List<long[]> all = new ArrayList<>();
            for (Future<long[]> f : clients) {
                all.add(f.get());
            }
            for (Future<?> f : servers) {
                f.get();
            }
            return all.stream().flatMapToLong(Arrays::stream).toArray();
        }
    }

    /** The server side: answers each 1-byte request until the client closes. */
    private static Callable<Void> serve(SocketChannel socket, FileChannel source, int size, String contender) {
        return () -> {
            try (socket) {
                ByteBuffer request = ByteBuffer.allocate(1);
                ByteBuffer header = ByteBuffer.allocateDirect(HEADER_BYTES);
                header.put(header(size)).flip();
                boolean gather = contender.equals("headerBody");
                while (true) {
                    request.clear();
                    if (socket.read(request) < 0) {
                        return null;
                    }
                    header.rewind();
                    if (gather) {
                        Transfers.copy(FileRegion.of(source, 0, size).withPrefix(new ByteBuffer[] {header}), socket);
                    } else {
                        while (header.hasRemaining()) {
                            socket.write(header);
                        }
                        Transfers.copy(source, 0, size, socket);
                    }
                }
            }
        };
    }

    /** The client side: request, read the whole response, repeat until the deadline; latencies in ns. */
    private static Callable<long[]> ask(SocketChannel socket, int responseBytes, long deadline) {
        return () -> {
            try (socket) {
                ByteBuffer request = ByteBuffer.allocateDirect(1);
                ByteBuffer response = ByteBuffer.allocateDirect(responseBytes);
                long[] times = new long[1024];
                int n = 0;
                // a few untimed requests first; at least MIN_REQUESTS timed ones even when each waits for a delayed ACK
                for (int i = -WARM_UP_REQUESTS; System.nanoTime() < deadline || i < MIN_REQUESTS; i++) {
                    long start = System.nanoTime();
                    request.clear();
                    socket.write(request);
                    response.clear();
                    while (response.hasRemaining()) {
                        if (socket.read(response) < 0) {
                            throw new EOFException("server closed after " + response.position() + " bytes");
                        }
                    }
                    if (i >= 0) {
                        if (n == times.length) {
                            times = Arrays.copyOf(times, n * 2);
                        }
                        times[n++] = System.nanoTime() - start;
                    }
                }
                return Arrays.copyOf(times, n);
            }
        };
    }

    /** A plausible HTTP response header of exactly {@link #HEADER_BYTES} bytes. */
    private static byte[] header(int size) {
        StringBuilder b = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n")
                .append("Content-Length: ")
                .append(size)
                .append("\r\nX-Pad: ");
        while (b.length() < HEADER_BYTES - 4) {
            b.append('x');
        }
        return b.append("\r\n\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static double quantile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))];
    }
}
