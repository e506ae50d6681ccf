package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.benchmarks.Median;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds of the library compared in one JVM: each benchmark jar named is loaded by a class loader
 * of its own, and each round times a batch of {@code Transfers.copy(Path, socket)} of a small file
 * for every build in turn, the order rotating, so that another process's load falls on all of them
 * alike (alternating JVMs leaves each build the load of its own minute). Prints each build's median
 * wall and CPU time per transfer, and every build's median of per-round ratios to the first. A
 * build labelled {@code floor} runs the bare calls instead ({@code bareCalls}: a jar built with
 * {@code -Puring}, Java 22+ with the native flags). A build labelled {@code garbage} runs its jar's
 * copy and then allocates {@value #GARBAGE_OBJECTS} linked objects of 48 bytes, what allocation
 * alone costs a transfer. Name one build twice as a control: on JDK 25
 * the two agree to about 2%, but on JDK 17 the first build named runs about 15% slower than the
 * same jar named again (docs/records/2026-11-29-fixed-cost-controls.md), so compare builds there
 * by alternating JVMs.
 *
 * <p>{@code java [flags] -cp benchmarks.jar io.zerocopy.benchmarks.fixedcost.SideBySideRun ROUNDS BATCH
 * SIZE LABEL=JAR...}; the first two rounds are warm-up and not counted.
 */
public final class SideBySideRun {
    private static final int WARM_UP_ROUNDS = 2;

    /** Objects a {@code garbage} build leaves per transfer: 528 bytes with compressed pointers. */
    private static final int GARBAGE_OBJECTS = 11;

    /** Where the last transfer's garbage is kept, so that no compiler drops it. */
    private static Garbage kept;

    private static final class Garbage {
        long a;
        long b;
        long c;
        long d;
        Garbage next;
    }

    private SideBySideRun() {}

    public static void main(String[] args) throws Throwable {
        if (args.length < 5) {
            throw new IllegalArgumentException("usage: ROUNDS BATCH SIZE LABEL=JAR LABEL=JAR...");
        }
        int rounds = Integer.parseInt(args[0]);
        int batch = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        List<String> labels = new ArrayList<>();
        List<MethodHandle> sends = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            labels.add(args[i].substring(0, eq));
            sends.add(send(labels.get(labels.size() - 1), Path.of(args[i].substring(eq + 1)), size));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int builds = sends.size();
        double[][] wall = new double[builds][rounds];
        double[][] cpu = new double[builds][rounds];
        Path file = Files.createTempFile("side-by-side", ".bin");
        try (DrainedSocket socket = new DrainedSocket()) {
            Files.write(file, new byte[size]);
            SocketChannel channel = socket.channel();
            for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
                for (int k = 0; k < builds; k++) {
                    int b = Math.floorMod(k + r, builds);
                    long c0 = threads.getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    for (int i = 0; i < batch; i++) {
                        if ((long) sends.get(b).invokeExact(file, channel) != size) {
                            throw new IllegalStateException(labels.get(b) + " sent a short count");
                        }
                    }
                    if (r >= 0) {
                        wall[b][r] = (System.nanoTime() - w0) / 1e3 / batch;
                        cpu[b][r] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / batch;
                    }
                }
            }
        } finally {
            Files.delete(file);
        }
        System.out.printf(
                "Java %s, %d rounds of %d transfers of %d bytes per build%n", Runtime.version(), rounds, batch, size);
        System.out.println("| build | wall us per transfer | CPU us per transfer | wall vs " + labels.get(0)
                + " | CPU vs " + labels.get(0) + " |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int b = 0; b < builds; b++) {
            double[] wallRatio = new double[rounds];
            double[] cpuRatio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                wallRatio[r] = wall[b][r] / wall[0][r];
                cpuRatio[r] = cpu[b][r] / cpu[0][r];
            }
            System.out.printf(
                    "| %s | %.2f | %.2f | %.3f | %.3f |%n",
                    labels.get(b), Median.of(wall[b]), Median.of(cpu[b]), Median.of(wallRatio), Median.of(cpuRatio));
        }
    }

    /** The send of one build, as {@code (Path, SocketChannel) -> long}. */
    private static MethodHandle send(String label, Path jar, int size)
            throws ReflectiveOperationException, java.io.IOException {
        ClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        MethodType sendType = MethodType.methodType(long.class, Path.class, SocketChannel.class);
        if (label.equals("floor")) {
            Class<?> plain = Class.forName("io.zerocopy.benchmarks.uring.PlainSender", true, loader);
            MethodHandle send = MethodHandles.publicLookup()
                    .findVirtual(
                            plain,
                            "send",
                            MethodType.methodType(long.class, Path.class, long.class, SocketChannel.class))
                    .bindTo(plain.getConstructor().newInstance());
            return MethodHandles.insertArguments(send, 1, (long) size).asType(sendType);
        }
        Class<?> transfers = Class.forName("io.zerocopy.Transfers", true, loader);
        MethodHandle copy = MethodHandles.publicLookup()
                .findStatic(transfers, "copy", MethodType.methodType(long.class, Path.class, WritableByteChannel.class))
                .asType(sendType);
        if (label.equals("garbage")) {
            MethodHandle leave = MethodHandles.lookup()
                    .findStatic(SideBySideRun.class, "leaveGarbage", MethodType.methodType(long.class, long.class));
            return MethodHandles.filterReturnValue(copy, leave);
        }
        return copy;
    }

    /** Allocates {@link #GARBAGE_OBJECTS} linked objects and keeps the last chain; returns {@code sent}. */
    private static long leaveGarbage(long sent) {
        Garbage chain = null;
        for (int i = 0; i < GARBAGE_OBJECTS; i++) {
            Garbage g = new Garbage();
            g.a = sent;
            g.next = chain;
            chain = g;
        }
        kept = chain;
        return sent;
    }
}
