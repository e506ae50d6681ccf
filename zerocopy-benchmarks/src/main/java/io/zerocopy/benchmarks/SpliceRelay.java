package io.zerocopy.benchmarks;

import io.zerocopy.TransferOptions;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of a TCP relay for {@link SpliceRun}: N connections of {@code each} bytes from
 * {@link MemorySenders} through a relay to a {@link Receiver}, the relay being this JVM's
 * ({@code Transfers.copy} with a forced strategy, each direction on its own thread) or
 * {@code socat}. Each run returns {GB/s, relay CPU ms per GB, seconds[, process CPU ms per GB]}.
 */
final class SpliceRelay {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /** {@code -Dnodelay=true}: the relay sets TCP_NODELAY on both its sockets (socat: {@code ,nodelay}), as proxies usually do. */
    private static final boolean NO_DELAY = Boolean.getBoolean("nodelay");
    /** {@code -Dvirtual=true}: relay contenders on virtual threads too. */
    private static final boolean VIRTUAL = Boolean.getBoolean("virtual");

    private static final String ON_VIRTUAL = "-virtual";

    private static final AtomicLong finished = new AtomicLong();

    private SpliceRelay() {}

    /** The relays measured: {@code buffered}, {@code splice}, {@code socat}, and with -Dvirtual the first two on virtual threads. */
    static String[] contenders() {
        return VIRTUAL
                ? new String[] {"buffered", "splice", "socat", "buffered" + ON_VIRTUAL, "splice" + ON_VIRTUAL}
                : new String[] {"buffered", "splice", "socat"};
    }

    /** N connections of {@code each} bytes through {@code contender} to {@code receiver}. */
    static double[] run(InetSocketAddress receiver, int n, long each, String contender) throws Exception {
        return contender.equals("socat") ? socat(receiver, n, each) : relay(receiver, n, each, contender);
    }

    /** {GB/s, relay CPU ms per GB, seconds} for N connections of {@code each} bytes through a Java relay. */
    private static double[] relay(InetSocketAddress receiver, int n, long each, String contender) throws Exception {
        boolean virtual = contender.endsWith(ON_VIRTUAL);
        String strategy = virtual ? contender.substring(0, contender.length() - ON_VIRTUAL.length()) : contender;
        TransferOptions options = TransferOptions.builder().strategy(strategy).build();
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
            double seconds = MemorySenders.send((InetSocketAddress) listener.getLocalAddress(), n, each, true);
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
            double seconds = MemorySenders.send(address, n, each, true);
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

    /** Starts {@code body} on a new virtual thread (Java 21+, looked up reflectively) or a daemon platform thread. */
    private static Thread start(Runnable body, boolean virtual) {
        if (!virtual) {
            return MemorySenders.daemon(body);
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
