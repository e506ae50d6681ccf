package io.zerocopy.benchmarks;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
 * {@link Receiver} (in this JVM on loopback, or in a network namespace behind a veth pair).
 */
public final class SpliceRun {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final long GIB = 1L << 30;
    /** {@code -Dnodelay=true}: the relay sets TCP_NODELAY on both its sockets (socat: {@code ,nodelay}), as proxies usually do. */
    private static final boolean NO_DELAY = Boolean.getBoolean("nodelay");
    /** {@code -Dvirtual=true}: relay contenders on virtual threads too. */
    private static final boolean VIRTUAL = Boolean.getBoolean("virtual");

    private static final String ON_VIRTUAL = "-virtual";

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
                        String[] contenders = VIRTUAL
                                ? new String[] {
                                    "buffered", "splice", "socat", "buffered" + ON_VIRTUAL, "splice" + ON_VIRTUAL
                                }
                                : new String[] {"buffered", "splice", "socat"};
                        for (String contender : contenders) {
                            double[] r = contender.equals("socat")
                                    ? socat(receiver, n, each)
                                    : relay(receiver, n, each, contender);
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
                                    toFiles(dir, n, each, contender));
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

    private static TransferOptions options(String contender) {
        return TransferOptions.builder().strategy(contender).build();
    }

    /** {GB/s, relay CPU ms per GB, seconds} for N connections of {@code each} bytes through a Java relay. */
    private static double[] relay(InetSocketAddress receiver, int n, long each, String contender) throws Exception {
        boolean virtual = contender.endsWith(ON_VIRTUAL);
        TransferOptions options =
                options(virtual ? contender.substring(0, contender.length() - ON_VIRTUAL.length()) : contender);
        AtomicLong cpu = new AtomicLong();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOOPBACK, 0), n);
            Thread acceptor = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    try {
                        SocketChannel client = listener.accept();
                        SocketChannel upstream = SocketChannel.open(receiver);
                        if (NO_DELAY) {
                            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
                            upstream.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        }
                        AtomicLong directions = new AtomicLong(2);
                        start(() -> pump(options, client, upstream, cpu, directions), virtual);
                        start(() -> pump(options, upstream, client, cpu, directions), virtual);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            acceptor.start();
            long processStart = PROCESS.getProcessCpuTime();
            double seconds = send((InetSocketAddress) listener.getLocalAddress(), n, each);
            acceptor.join();
            double gb = n * each / 1e9;
            // The relay threads finish (and add their CPU) a moment after the last acknowledgement.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (finished.get() < 2L * n && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            finished.set(0);
            double processMsPerGb = (PROCESS.getProcessCpuTime() - processStart) / 1e6 / gb;
            // a virtual thread's CPU time reads -1: no relay figure of its own
            return new double[] {gb / seconds, virtual ? Double.NaN : cpu.get() / 1e6 / gb, seconds, processMsPerGb};
        }
    }

    private static final AtomicLong finished = new AtomicLong();

    /** One direction of a relayed connection: copy to end of stream, pass the end on; the last one closes both. */
    private static void pump(
            TransferOptions options, SocketChannel from, SocketChannel to, AtomicLong cpu, AtomicLong directions) {
        long started = THREADS.getCurrentThreadCpuTime();
        try {
            Transfers.copy((ReadableByteChannel) from, to, options);
            to.shutdownOutput();
        } catch (IOException e) {
            // the peer went away; the other direction ends too
        } finally {
            cpu.addAndGet(THREADS.getCurrentThreadCpuTime() - started);
            if (directions.decrementAndGet() == 0) {
                try (from;
                        to) {
                    finished.addAndGet(2);
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }

    /**
     * Runs N senders to {@code address} at once, each writing a size header and {@code each} bytes
     * (the Receiver's protocol), waiting for its one-byte acknowledgement; returns the seconds until
     * the last one arrived.
     */
    private static double send(InetSocketAddress address, int n, long each) throws Exception {
        List<Thread> senders = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            senders.add(start(() -> {
                try (SocketChannel socket = SocketChannel.open(address)) {
                    ByteBuffer header =
                            ByteBuffer.allocate(Long.BYTES).putLong(each).flip();
                    while (header.hasRemaining()) {
                        socket.write(header);
                    }
                    ByteBuffer data = ByteBuffer.allocateDirect(1 << 20);
                    for (long left = each; left > 0; ) {
                        data.clear().limit((int) Math.min(data.capacity(), left));
                        while (data.hasRemaining()) {
                            left -= socket.write(data);
                        }
                    }
                    if (socket.read(ByteBuffer.allocate(1)) != 1) {
                        throw new IOException("no acknowledgement");
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : senders) {
            t.join();
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** The same through {@code socat} (Debian's package), its CPU read from /proc including reaped children. */
    private static double[] socat(InetSocketAddress receiver, int n, long each) throws Exception {
        int port;
        try (ServerSocketChannel probe = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0))) {
            port = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        Process socat = new ProcessBuilder(
                        "socat",
                        "-b",
                        "262144",
                        "TCP-LISTEN:" + port + ",bind=127.0.0.1,reuseaddr,fork,backlog=512"
                                + (NO_DELAY ? ",nodelay" : ""),
                        "TCP:" + receiver.getHostString() + ":" + receiver.getPort() + (NO_DELAY ? ",nodelay" : ""))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            InetSocketAddress address = new InetSocketAddress(LOOPBACK, port);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    SocketChannel.open(address).close();
                    break; // listening (this connection's child exits at once: the receiver sees no header)
                } catch (IOException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    Thread.sleep(10);
                }
            }
            awaitNoChildren(socat);
            long before = ticks(socat.pid());
            double seconds = send(address, n, each);
            awaitNoChildren(socat);
            double gb = n * each / 1e9;
            double cpuMs = (ticks(socat.pid()) - before) * 1000.0 / 100; // USER_HZ
            return new double[] {gb / seconds, cpuMs / gb, seconds};
        } finally {
            socat.destroy();
            socat.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void awaitNoChildren(Process p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (p.toHandle().children().findAny().isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** utime + stime + cutime + cstime of a process, in clock ticks. */
    private static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** {GB/s, copying threads' CPU ms per GB, seconds}: N sockets drained into N files at once. */
    private static double[] toFiles(Path dir, int n, long each, String contender) throws Exception {
        TransferOptions options = options(contender);
        AtomicLong cpu = new AtomicLong();
        List<Thread> copyingThreads = new ArrayList<>();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOOPBACK, 0), n);
            InetSocketAddress address = (InetSocketAddress) listener.getLocalAddress();
            long started = System.nanoTime();
            Thread senders = start(() -> {
                try {
                    sendRaw(address, n, each);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < n; i++) {
                SocketChannel source = listener.accept();
                Path file = dir.resolve("f" + i);
                copyingThreads.add(start(() -> {
                    long cpuStart = THREADS.getCurrentThreadCpuTime();
                    try (source;
                            FileChannel target = FileChannel.open(
                                    file,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE,
                                    StandardOpenOption.TRUNCATE_EXISTING)) {
                        if (Transfers.copy((ReadableByteChannel) source, target, options) != each) {
                            throw new IOException("short copy");
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        cpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuStart);
                    }
                }));
            }
            for (Thread t : copyingThreads) {
                t.join();
            }
            senders.join();
            double seconds = (System.nanoTime() - started) / 1e9;
            double gb = n * each / 1e9;
            return new double[] {gb / seconds, cpu.get() / 1e6 / gb, seconds};
        }
    }

    /** N connections, each sending {@code each} bytes from memory and closing. */
    private static void sendRaw(InetSocketAddress address, int n, long each) throws Exception {
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            senders.add(start(() -> {
                try (SocketChannel socket = SocketChannel.open(address)) {
                    ByteBuffer data = ByteBuffer.allocateDirect(1 << 20);
                    for (long left = each; left > 0; ) {
                        data.clear().limit((int) Math.min(data.capacity(), left));
                        while (data.hasRemaining()) {
                            left -= socket.write(data);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : senders) {
            t.join();
        }
    }

    private static Thread start(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Starts {@code body} on a new virtual thread (Java 21+, looked up reflectively) or a daemon platform thread. */
    private static Thread start(Runnable body, boolean virtual) {
        if (!virtual) {
            return start(body);
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            return (Thread) Class.forName("java.lang.Thread$Builder")
                    .getMethod("start", Runnable.class)
                    .invoke(builder, body);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads need Java 21; this is " + Runtime.version(), e);
        }
    }
}
