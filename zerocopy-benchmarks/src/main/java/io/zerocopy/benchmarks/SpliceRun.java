package io.zerocopy.benchmarks;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The splice measurements: a TCP relay (socket to socket, both directions, as a proxy runs) and a
 * socket drained into a file, each with N connections at once, contenders interleaved round by
 * round. Not JMH: a relay has three parties and the interesting cost is the relay's own CPU, read
 * from the relay threads' counters (and, for {@code socat}, from the process and its reaped
 * children in {@code /proc}).
 *
 * <pre>
 * java --add-opens java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
 *     -cp benchmarks.jar io.zerocopy.benchmarks.SpliceRun relay|file ROUNDS [veth]
 * </pre>
 *
 * With {@code -Dnodelay=true} the relays set {@code TCP_NODELAY} on both sockets. With
 * {@code -Dvirtual=true} (Java 21+) the relay also runs {@code buffered} and {@code splice} with
 * each direction on a virtual thread ({@code buffered-virtual}, {@code splice-virtual}), whose CPU
 * the JDK does not count per thread: for those compare the relay runs' process CPU, the last column
 * (sender, relay and, on loopback, receiver). Prints one CSV line per run
 * ({@code kind,peer,n,contender,round,seconds,GB/s,cpuMsPerGB[,processCpuMsPerGB]}) and
 * then the medians. The relay's peers: a sender thread writing from memory and the benchmarks'
 * {@link Receiver} (in this JVM on loopback, or in a network namespace behind a veth pair). One run
 * of each kind is {@link SpliceRelay}'s or {@link SpliceToFiles}'s; this class rotates and reports.
 */
public final class SpliceRun {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final long GIB = 1L << 30;

    private SpliceRun() {}

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int rounds = Integer.parseInt(args[1]);
        boolean veth = args.length > 2 && args[2].equals("veth");
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        if (kind.equals("relay")) {
            try (Receiver local = Receiver.start(new InetSocketAddress(LOOPBACK, 0));
                    VethPeer far = veth ? VethPeer.start() : null) {
                InetSocketAddress receiver = veth ? far.address() : local.address();
                String peer = veth ? "veth" : "loopback";
                for (int round = 1; round <= rounds; round++) {
                    for (int n : new int[] {1, 256}) {
                        long each = n == 1 ? 2 * GIB : 8L << 20;
                        for (String contender : SpliceRelay.contenders()) {
                            double[] r = SpliceRelay.run(receiver, n, each, contender);
                            record(results, "relay," + peer + "," + n + "," + contender, round, r);
                        }
                    }
                }
            }
        } else {
            Path dir = Files.createTempDirectory(Path.of(args.length > 2 ? args[2] : "/tmp"), "splice-run");
            try {
                for (int round = 1; round <= rounds; round++) {
                    for (int n : new int[] {1, 256}) {
                        long each = n == 1 ? GIB : 4L << 20;
                        for (String contender : new String[] {"buffered", "transferFrom", "splice"}) {
                            record(
                                    results,
                                    "file,loopback," + n + "," + contender,
                                    round,
                                    SpliceToFiles.run(dir, n, each, contender));
                        }
                    }
                }
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(dir);
            }
        }
        System.out.println("# medians: key, GB/s, CPU ms/GB, runs[, process CPU ms/GB]");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            List<double[]> runs = e.getValue();
            System.out.printf(
                    Locale.ROOT,
                    "%s,%.2f,%.0f,%d%s%n",
                    e.getKey(),
                    median(runs, 0),
                    median(runs, 1),
                    runs.size(),
                    runs.get(0).length > 3 ? String.format(Locale.ROOT, ",%.0f", median(runs, 3)) : "");
        }
    }

    private static void record(Map<String, List<double[]>> results, String key, int round, double[] r) {
        results.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        System.out.printf(
                Locale.ROOT,
                "%s,%d,%.3f,%.2f,%.0f%s%n",
                key,
                round,
                r[2],
                r[0],
                r[1],
                r.length > 3 ? String.format(Locale.ROOT, ",%.0f", r[3]) : "");
        System.out.flush();
    }

    private static double median(List<double[]> runs, int index) {
        return Median.of(runs.stream().mapToDouble(r -> r[index]).toArray());
    }
}
