package io.zerocopy.benchmarks.fixedcost;

import io.zerocopy.benchmarks.Data;
import io.zerocopy.benchmarks.Median;
import io.zerocopy.benchmarks.VethPeer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The fixed-cost comparison behind docs/fixed-cost.md: every contender of
 * {@link FixedCostContenders} at each size, in rounds, in a new random order each round, all in one
 * JVM, so that the machine's drift falls on every contender alike. A round times a batch of
 * transfers per contender, in wall-clock time and in the sending thread's CPU time (which another
 * process on the machine disturbs less); the report gives the medians of the rounds' per-transfer
 * times and their ratios to the faster raw loop that opens its file the same way, and the heap
 * bytes the sending thread allocated per transfer (which the machine does not disturb at all).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.fixedcost.FixedCostRun [rounds] [batch] [sizes...]
 * [--csv FILE] [--contenders a,b,...] [--vs a,b,...] [--warm-up N]} (defaults: 15 rounds, 2,000 transfers a
 * batch, sizes 0, 4096, 8192 and 65536, every contender that can run in this JVM; the first two rounds, or
 * {@code N}, are warm-up and not counted). The ratio to the faster raw loop needs both raw loops that open their file the same way among the
 * contenders. {@code --vs} adds, for each contender named, every other contender's median of per-round ratios
 * to it (wall and CPU). {@code --peer veth} sends to a receiver in another network namespace over a veth
 * pair ({@link VethPeer}: root only), a peer on another host, instead of a drain thread in this JVM;
 * {@code --peer unix}, a Unix domain socket drained by a thread in this JVM. With
 * {@code --only CONTENDER TRANSFERS SIZE} it sends that many
 * transfers of one contender without timing them, for counting system calls per transfer.
 */
public final class FixedCostRun {
    /**
     * Rounds not counted: 2 unless {@code --warm-up} says otherwise. JDK 17 compiles the library's
     * methods with C2 only after about 2 s, so its slices need about 45 rounds of 2,000 to be timed
     * compiled (docs/records/2026-11-29-sixteen-cpus.md).
     */
    private static int warmUpRounds = 2;

    private FixedCostRun() {}

    public static void main(String[] args) throws IOException {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        Path csv = null;
        int flag = rest.indexOf("--csv");
        if (flag >= 0) {
            csv = Path.of(rest.get(flag + 1));
            rest.subList(flag, flag + 2).clear();
        }
        List<String> chosen = null;
        flag = rest.indexOf("--contenders");
        if (flag >= 0) {
            chosen = Arrays.asList(rest.get(flag + 1).split(","));
            chosen.forEach(FixedCostContenders::of);
            rest.subList(flag, flag + 2).clear();
        }
        List<String> vs = List.of();
        flag = rest.indexOf("--vs");
        if (flag >= 0) {
            vs = Arrays.asList(rest.get(flag + 1).split(","));
            vs.forEach(FixedCostContenders::of);
            rest.subList(flag, flag + 2).clear();
        }
        flag = rest.indexOf("--warm-up");
        if (flag >= 0) {
            warmUpRounds = Integer.parseInt(rest.get(flag + 1));
            rest.subList(flag, flag + 2).clear();
        }
        flag = rest.indexOf("--peer");
        if (flag >= 0 && rest.get(flag + 1).equals("unix")) {
            rest.subList(flag, flag + 2).clear();
            unixDomain = true;
        } else if (flag >= 0) {
            if (!rest.get(flag + 1).equals("veth")) {
                throw new IllegalArgumentException("--peer: " + rest.get(flag + 1) + " (expected: veth or unix)");
            }
            rest.subList(flag, flag + 2).clear();
            try {
                veth = VethPeer.start(
                        "io.zerocopy.benchmarks.Receiver", List.of("-Xmx64m"), List.of(VethPeer.PEER_ADDRESS, "0"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the veth peer", e);
            }
        }
        try {
            run(rest, csv, chosen, vs);
        } finally {
            if (veth != null) {
                veth.close();
            }
        }
    }

    /** The veth peer that {@code --peer veth} started, or null for a drain thread in this JVM. */
    private static VethPeer veth;

    /** Whether {@code --peer unix} asked for a Unix domain socket drained by a thread in this JVM. */
    private static boolean unixDomain;

    private static DrainedSocket drainedSocket() throws IOException {
        if (unixDomain) {
            return DrainedSocket.unixDomain();
        }
        return DrainedSocket.to(veth == null ? null : veth.address());
    }

    private static void run(List<String> rest, Path csv, List<String> chosen, List<String> vs) throws IOException {
        int only = rest.indexOf("--only");
        if (only >= 0) {
            // --only CONTENDER TRANSFERS SIZE: no timing, for counting system calls per transfer (strace -c)
            sendOnly(
                    FixedCostContenders.of(rest.get(only + 1)),
                    Integer.parseInt(rest.get(only + 2)),
                    Integer.parseInt(rest.get(only + 3)));
            return;
        }
        int rounds = rest.size() > 0 ? Integer.parseInt(rest.get(0)) : 15;
        int batch = rest.size() > 1 ? Integer.parseInt(rest.get(1)) : 2000;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 2; i < rest.size(); i++) {
            sizes.add(Integer.parseInt(rest.get(i)));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(0, 4096, 8192, 65536);
        }
        StringBuilder table = new StringBuilder(
                "| size | contender | wall us per transfer | vs faster raw loop"
                        + " | CPU us per transfer | vs faster raw loop | heap bytes per transfer |\n|---|---|---|---|---|---|---|\n");
        StringBuilder lines = new StringBuilder("java,size,contender,wall_us,wall_ratio,cpu_us,cpu_ratio,heap_bytes\n");
        String java = Integer.toString(Runtime.version().feature());
        List<FixedCostContenders> contenders = new ArrayList<>();
        for (FixedCostContenders c : FixedCostContenders.values()) {
            String refusal = c.refusal();
            if (chosen != null && !chosen.contains(c.label)) {
                continue;
            }
            if (refusal == null) {
                contenders.add(c);
            } else {
                System.out.println(c.label + " left out: " + refusal);
            }
        }
        StringBuilder ratios = new StringBuilder();
        for (int size : sizes) {
            List<Map<FixedCostContenders, List<Double>>> perRound = run(contenders, size, rounds, batch);
            Map<FixedCostContenders, Double> wall = medians(perRound.get(0));
            Map<FixedCostContenders, Double> cpu = medians(perRound.get(1));
            Map<FixedCostContenders, Double> heap = medians(perRound.get(2));
            for (String label : vs) {
                FixedCostContenders reference = FixedCostContenders.of(label);
                for (FixedCostContenders c : contenders) {
                    if (c != reference && perRound.get(0).containsKey(reference)) {
                        ratios.append(String.format(
                                Locale.ROOT,
                                "| %d | %s / %s | %.3f | %.3f |%n",
                                size,
                                c.label,
                                label,
                                roundRatio(perRound.get(0), c, reference),
                                roundRatio(perRound.get(1), c, reference)));
                    }
                }
            }
            for (FixedCostContenders c : contenders) {
                double wallRatio = wall.get(c) / fasterRaw(wall, c.opensPerTransfer());
                double cpuRatio = cpu.get(c) / fasterRaw(cpu, c.opensPerTransfer());
                Object[] row = {size, c.label, wall.get(c), wallRatio, cpu.get(c), cpuRatio, heap.get(c)};
                table.append(String.format(Locale.ROOT, "| %d | %s | %.2f | %.2f | %.2f | %.2f | %.0f |%n", row));
                lines.append(java)
                        .append(',')
                        .append(String.format(Locale.ROOT, "%d,%s,%.3f,%.3f,%.3f,%.3f,%.0f%n", row));
            }
        }
        System.out.println("Java " + Runtime.version() + ", " + rounds + " rounds (" + warmUpRounds + " warm-up) of "
                + batch + " transfers per contender" + (veth == null ? "" : ", to a veth peer at " + veth.address()));
        System.out.print(table);
        if (ratios.length() > 0) {
            System.out.println("\nMedians of the per-round ratios (each round times both contenders)");
            System.out.print("| size | ratio | wall | CPU |\n|---|---|---|---|\n" + ratios);
        }
        if (csv != null) {
            Files.writeString(csv, lines, StandardCharsets.UTF_8);
        }
    }

    private static void sendOnly(FixedCostContenders contender, int transfers, int size) throws IOException {
        Path path = Data.source(Data.dir(), size);
        try (FileChannel open = FileChannel.open(path, StandardOpenOption.READ);
                DrainedSocket socket = drainedSocket()) {
            FixedCostContenders.Ends ends = new FixedCostContenders.Ends(path, size, open, socket.channel());
            for (int i = 0; i < transfers; i++) {
                contender.send(ends);
            }
        }
    }

    /** The faster raw loop's median; NaN when a raw loop was not among the contenders. */
    private static double fasterRaw(Map<FixedCostContenders, Double> medians, boolean opensPerTransfer) {
        double nan = Double.NaN;
        return opensPerTransfer
                ? Math.min(
                        medians.getOrDefault(FixedCostContenders.RAW_TRANSFER_TO, nan),
                        medians.getOrDefault(FixedCostContenders.RAW_PREAD_WRITE, nan))
                : Math.min(
                        medians.getOrDefault(FixedCostContenders.RAW_TRANSFER_TO_OPEN, nan),
                        medians.getOrDefault(FixedCostContenders.RAW_PREAD_WRITE_OPEN, nan));
    }

    /** The median over the counted rounds of {@code c}'s time divided by the reference's time in the same round. */
    private static double roundRatio(
            Map<FixedCostContenders, List<Double>> rounds, FixedCostContenders c, FixedCostContenders reference) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds.get(c).size(); i++) {
            ratios.add(rounds.get(c).get(i) / rounds.get(reference).get(i));
        }
        return Median.of(ratios);
    }

    /**
     * Per-transfer figures for every contender at one size, one entry per counted round: wall-clock
     * and CPU microseconds, then heap bytes the sending thread allocated.
     */
    private static List<Map<FixedCostContenders, List<Double>>> run(
            List<FixedCostContenders> contenders, int size, int rounds, int batch) throws IOException {
        Path path = Data.source(Data.dir(), size);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<FixedCostContenders, List<Double>> times = new EnumMap<>(FixedCostContenders.class);
        Map<FixedCostContenders, List<Double>> cpuTimes = new EnumMap<>(FixedCostContenders.class);
        Map<FixedCostContenders, List<Double>> heapBytes = new EnumMap<>(FixedCostContenders.class);
        List<FixedCostContenders> order = new ArrayList<>(contenders);
        Random shuffle = new Random(size);
        try (FileChannel open = FileChannel.open(path, StandardOpenOption.READ);
                DrainedSocket socket = drainedSocket()) {
            FixedCostContenders.Ends ends = new FixedCostContenders.Ends(path, size, open, socket.channel());
            for (int round = 0; round < rounds; round++) {
                Collections.shuffle(order, shuffle);
                for (FixedCostContenders c : order) {
                    long start = System.nanoTime();
                    long cpuStart = threads.getCurrentThreadCpuTime();
                    long heapStart = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < batch; i++) {
                        if (c.send(ends) != size) {
                            throw new IllegalStateException(c.label + " sent the wrong number of bytes");
                        }
                    }
                    double us = (System.nanoTime() - start) / 1e3 / batch;
                    double cpuUs = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e3 / batch;
                    double heap = (threads.getCurrentThreadAllocatedBytes() - heapStart) / (double) batch;
                    if (round >= warmUpRounds) {
                        times.computeIfAbsent(c, k -> new ArrayList<>()).add(us);
                        cpuTimes.computeIfAbsent(c, k -> new ArrayList<>()).add(cpuUs);
                        heapBytes.computeIfAbsent(c, k -> new ArrayList<>()).add(heap);
                    }
                }
            }
        }
        return List.of(times, cpuTimes, heapBytes);
    }

    private static Map<FixedCostContenders, Double> medians(Map<FixedCostContenders, List<Double>> times) {
        Map<FixedCostContenders, Double> medians = new EnumMap<>(FixedCostContenders.class);
        times.forEach((c, list) -> medians.put(c, Median.of(list)));
        return medians;
    }
}
