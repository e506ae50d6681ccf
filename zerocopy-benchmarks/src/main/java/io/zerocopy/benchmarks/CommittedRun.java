package io.zerocopy.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The run behind docs/benchmarks.md: a documented subset of the full matrix that takes about
 * twelve minutes on two cores, with JMH's GC profiler, one fork per cell and the warm-up and
 * measurement of the benchmark annotations (2 x 1 s, 3 x 1 s).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.CommittedRun <out-dir>} writes one JMH
 * JSON file per group and {@code summary.csv} (one line per cell and contender: median time per
 * operation, CPU ms per GB of the copying thread, bytes allocated per operation by the JVM and by
 * the copying thread), then deletes the
 * generated source files. {@link Report} turns summaries into tables and the chart.
 */
public final class CommittedRun {
    private static final String K64 = "65536";
    private static final String M1 = "1048576";
    private static final String M64 = "67108864";
    private static final String G1 = "1073741824";

    private CommittedRun() {}

    /** One JMH invocation: a benchmark class and the parameter values it runs with. */
    static final class Group {
        final String name;
        final Class<?> benchmark;
        final Map<String, String[]> params = new TreeMap<>();

        Group(String name, Class<?> benchmark) {
            this.name = name;
            this.benchmark = benchmark;
        }

        Group with(String param, String... values) {
            params.put(param, values);
            return this;
        }

        /** These contenders, named in one string separated by spaces. */
        Group contenders(String names) {
            return with("contender", names.split(" "));
        }

        /** Every contender the benchmark declares in its {@code @Param}. */
        Group allContenders() {
            try {
                return with(
                        "contender",
                        benchmark
                                .getField("contender")
                                .getAnnotation(Param.class)
                                .value());
            } catch (NoSuchFieldException e) {
                throw new IllegalArgumentException(benchmark.getSimpleName() + " has no contender parameter", e);
            }
        }
    }

    /** The committed subset; every name and value here must exist in the benchmark's {@code @Param}s. */
    static List<Group> groups() {
        return List.of(
                new Group("socket-loopback", FileToSocketBenchmark.class)
                        .with("peer", "loopback")
                        .with("noDelay", "false")
                        .with("size", K64, M64, G1)
                        .allContenders(),
                new Group("socket-loopback-4k", FileToSocketBenchmark.class)
                        .with("peer", "loopback")
                        .with("noDelay", "false")
                        .with("size", "4096")
                        .contenders("default transferTo buffered rawTransferTo classic4k streamTransferTo"),
                new Group("socket-loopback-nodelay", FileToSocketBenchmark.class)
                        .with("peer", "loopback")
                        .with("noDelay", "true")
                        .with("size", M64)
                        .contenders("default transferTo mmap buffered rawTransferTo classic4k"),
                new Group("socket-veth", FileToSocketBenchmark.class)
                        .with("peer", "veth")
                        .with("noDelay", "false")
                        .with("size", M1, G1)
                        .contenders("default transferTo mmap buffered bufferedMss rawTransferTo classic4k"),
                new Group("file-1g", FileToFileBenchmark.class)
                        .with("size", G1)
                        .contenders(
                                "default transferTo mmap buffered rawTransferTo classic4k guava filesCopy fileUtils"),
                new Group("file-1m", FileToFileBenchmark.class)
                        .with("size", M1)
                        .contenders("default transferTo buffered classic4k filesCopy"),
                new Group("socket-to-file", SocketToFileBenchmark.class)
                        .with("size", M64)
                        .allContenders(),
                new Group("socket-to-file-1m", SocketToFileBenchmark.class)
                        .with("size", M1)
                        .contenders("default transferFrom rawTransferFrom classic4k"),
                new Group("stream", StreamToStreamBenchmark.class)
                        .with("size", M1)
                        .allContenders(),
                new Group("wrapper-checksum", FileToWrapperBenchmark.class)
                        .with("wrapper", "checksum")
                        .with("size", M1, M64)
                        .contenders("default mmap buffered rawTransferTo rawMmap classic4k"),
                new Group("wrapper-socket", FileToWrapperBenchmark.class)
                        .with("wrapper", "socketStream")
                        .with("size", M64)
                        .contenders("default mmap buffered rawTransferTo"));
    }

    /**
     * Runs the committed subset.
     *
     * @param args the output directory, then optionally group names to run only those
     */
    public static void main(String[] args) throws IOException, RunnerException, InterruptedException {
        if (args.length < 1) {
            System.err.println("usage: CommittedRun <out-dir> [group...]");
            System.exit(2);
        }
        Path out = Files.createDirectories(Paths.get(args[0]));
        List<String> only = List.of(args).subList(1, args.length);
        boolean veth = vethAvailable();
        String jdk = Runtime.version().feature() + "";
        List<String> lines = new ArrayList<>();
        lines.add(Report.CSV_HEADER);
        try {
            for (Group group : groups()) {
                if (!only.isEmpty() && !only.contains(group.name)) {
                    continue;
                }
                if (group.params.containsKey("peer") && group.params.get("peer")[0].equals("veth") && !veth) {
                    continue;
                }
                for (RunResult result : run(group, out)) {
                    lines.add(csvLine(jdk, result));
                }
                Files.write(out.resolve("summary.csv"), lines, StandardCharsets.UTF_8);
            }
        } finally {
            Data.deleteAll();
        }
    }

    private static boolean vethAvailable() throws InterruptedException {
        try {
            VethPeer.start().close();
            return true;
        } catch (IOException e) {
            System.err.println("SKIPPING the veth peer groups: " + e.getMessage());
            return false;
        }
    }

    private static Collection<RunResult> run(Group group, Path out) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(group.benchmark.getName() + ".copy") + "$")
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(false)
                .result(out.resolve(group.name + ".json").toString())
                .resultFormat(ResultFormatType.JSON);
        group.params.forEach(options::param);
        return new Runner(options.build()).run();
    }

    /** One summary line; see {@link Report#CSV_HEADER}. JMH's API hands out raw {@code Result}s. */
    @SuppressWarnings("rawtypes")
    static String csvLine(String jdk, RunResult result) {
        BenchmarkParams params = result.getParams();
        String pair = params.getBenchmark().replaceAll(".*\\.(\\w+)Benchmark\\.copy$", "$1");
        List<String> cell = new ArrayList<>();
        for (String key : params.getParamsKeys()) {
            if (!key.equals("size") && !key.equals("contender")) {
                cell.add(key + "=" + params.getParam(key));
            }
        }
        Map<String, Result> secondary = result.getSecondaryResults();
        double cpuNanos = score(secondary, "cpuNanos");
        double bytes = score(secondary, "bytes");
        double operations = bytes / Long.parseLong(params.getParam("size"));
        var stats = result.getPrimaryResult().getStatistics();
        return String.join(
                ",",
                jdk,
                pair,
                params.getParam("size"),
                String.join(" ", cell),
                params.getParam("contender"),
                format(stats.getPercentile(50)),
                format(stats.getMin()),
                format(stats.getMax()),
                format(bytes > 0 ? cpuNanos / bytes * 1000 : Double.NaN),
                format(score(secondary, "gc.alloc.rate.norm")),
                format(operations > 0 ? score(secondary, "allocatedBytes") / operations : Double.NaN));
    }

    @SuppressWarnings("rawtypes")
    private static double score(Map<String, Result> results, String name) {
        Result r = results.get(name);
        return r == null ? Double.NaN : r.getScore();
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.6g", value);
    }
}
