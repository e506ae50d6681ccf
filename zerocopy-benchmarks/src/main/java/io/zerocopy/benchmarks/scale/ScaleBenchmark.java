package io.zerocopy.benchmarks.scale;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The scale benchmark: N transfers at once (N in 1, 16, 256, 1000), file → loopback socket, file →
 * a veth peer in another network namespace, and socket → file with N senders, on platform and
 * virtual threads, every contender of {@link ScaleContenders} in rotating order each round. The
 * peer is its own process ({@link PeerServer}), so the CPU measured is the sender's alone.
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.scale.ScaleBenchmark [options]} (see
 * {@link ScaleOptions#USAGE}) writes {@code rounds.csv}, {@code summary.csv}, {@code summary.md}
 * and {@code scale.png} to its output directory. Cells it cannot run here (virtual threads before
 * JDK 21, veth without the permission) are skipped with a message.
 */
public final class ScaleBenchmark {
    /** The child JVM of {@code --jvm-args} gets at most this long. */
    private static final long CHILD_HOURS = 4;

    private static final int WARMUP_N = 4;
    private static final long WARMUP_SIZE = 8L << 20;

    private ScaleBenchmark() {}

    /**
     * Runs the benchmark.
     *
     * @param args see {@link ScaleOptions#USAGE}
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        ScaleOptions options;
        try {
            options = ScaleOptions.parse(args);
            options.checkContenders();
            options.cells();
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().equals("help")) {
                System.err.println(e.getMessage());
            }
            System.err.println(ScaleOptions.USAGE);
            System.exit(2);
            return;
        }
        if (!options.jvmArgs.isEmpty()) {
            System.exit(runChild(options));
        }
        run(options);
    }

    /** Runs the cells of {@code options} in this JVM; returns the summary file. */
    static Path run(ScaleOptions options) throws IOException, InterruptedException {
        long began = System.nanoTime();
        List<Cell> cells = runnable(options.cells());
        ResultFiles files = new ResultFiles(options.out);
        System.out.printf(
                "JDK %d (%s), %s, %d cells, results in %s%n",
                Runtime.version().feature(), Runtime.version(), ResultFiles.jvmLabel(), cells.size(), options.out);
        try (Workspace workspace = new Workspace();
                MemorySampler sampler = new MemorySampler();
                Peers peers = new Peers()) {
            CellRunner runner = new CellRunner(workspace, sampler, options.noDelay, options.timeoutSeconds);
            cells = withReachablePeers(cells, peers);
            if (options.warmup) {
                warmUp(cells, runner, peers);
            }
            for (Cell cell : cells) {
                System.out.printf("== %s (at %d s)%n", cell, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
                List<RunResult> runs = new ArrayList<>();
                for (int round = 0; round < cell.rounds(); round++) {
                    for (int k = 0; k < cell.contenders().size(); k++) {
                        String name = cell.contenders()
                                .get((k + round) % cell.contenders().size());
                        RunResult run = runner.run(peers.of(cell.pair()), cell, name, round, k);
                        runs.add(run);
                        files.add(run);
                        System.out.println("   round " + round + "  " + run);
                    }
                }
                for (Summary line : files.addCell(cell, runs)) {
                    System.out.printf(
                            "   median %-16s %6.2f GB/s  %.2f of best  failures %d%n",
                            line.contender(), line.gbps(), line.ratio(), line.failures());
                }
            }
        }
        System.out.printf("done in %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
        Path dir = files.summary().getParent();
        ScaleReport.write(List.of(files.summary()), dir.resolve("summary.md"), dir.resolve("scale.png"));
        return files.summary();
    }

    /** Drops cells of a thread kind this JVM cannot run, saying so once per kind. */
    private static List<Cell> runnable(List<Cell> cells) {
        List<Cell> kept = new ArrayList<>();
        Set<ThreadKind> reported = new LinkedHashSet<>();
        for (Cell cell : cells) {
            String why = cell.threads().unavailableBecause();
            if (why == null) {
                kept.add(cell);
            } else if (reported.add(cell.threads())) {
                System.out.println("SKIPPING " + cell.threads().id + " cells: " + why);
            }
        }
        return kept;
    }

    /** Drops the veth cells when the namespace cannot be set up here, saying why. */
    private static List<Cell> withReachablePeers(List<Cell> cells, Peers peers) throws InterruptedException {
        if (cells.stream().noneMatch(c -> c.pair() == Pair.VETH)) {
            return cells;
        }
        try {
            peers.of(Pair.VETH);
            return cells;
        } catch (IOException e) {
            System.out.println("SKIPPING veth cells: " + e.getMessage());
            return cells.stream().filter(c -> c.pair() != Pair.VETH).toList();
        }
    }

    /** One discarded run of every contender per pair and thread kind, so the first cell is not the JIT's. */
    private static void warmUp(List<Cell> cells, CellRunner runner, Peers peers)
            throws IOException, InterruptedException {
        Set<String> done = new LinkedHashSet<>();
        for (Cell cell : cells) {
            if (done.add(cell.pair() + " " + cell.threads())) {
                Cell small = new Cell(
                        cell.pair(),
                        cell.threads(),
                        Math.min(cell.size(), WARMUP_SIZE),
                        Math.min(cell.n(), WARMUP_N),
                        false,
                        cell.contenders(),
                        1);
                System.out.println("warm-up " + small);
                for (String name : small.contenders()) {
                    RunResult run = runner.run(peers.of(small.pair()), small, name, 0, 0);
                    if (run.failures() > 0) {
                        System.out.println("   warm-up " + run);
                    }
                }
            }
        }
    }

    /** Runs the same arguments, without {@code --jvm-args}, in a child JVM with those flags. */
    private static int runChild(ScaleOptions options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(options.jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleBenchmark.class.getName()));
        command.addAll(options.childArgs);
        System.out.println("child JVM: " + String.join(" ", command));
        Process child = new ProcessBuilder(command).inheritIO().start();
        if (!child.waitFor(CHILD_HOURS, TimeUnit.HOURS)) {
            child.destroyForcibly();
            System.err.println("the child JVM did not finish within " + CHILD_HOURS + " hours");
            return 1;
        }
        return child.exitValue();
    }
}
