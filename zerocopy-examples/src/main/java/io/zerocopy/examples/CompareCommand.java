package io.zerocopy.examples;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code compare}: the 2008 zero-copy table, measured again on this machine. It generates one
 * file per size ({@link GeneratedFileSet}), times every {@link CompareMethod} sending each to a
 * server on 127.0.0.1 ({@link InterleavedRuns}, with {@link CompareProgress} on the terminal),
 * then prints the medians beside the 2008 figures and writes {@code compare.csv},
 * {@code compare-runs.csv} ({@link CompareReport}) and {@code compare.png} ({@link ComparisonChart}).
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Reproduces the 2008 zero-copy table on this machine: the buffered strategy with a 4 KiB buffer "
                    + "(the size of 2008's read/write loop) against transferTo (and the library's own choice), file "
                    + "to a socket over loopback. Prints medians beside the 2008 figures and writes a CSV and a PNG "
                    + "chart."
        })
final class CompareCommand implements Callable<Integer> {

    static final String QUICK_SIZES = "64K,1M";
    static final int DEFAULT_RUNS = 11;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--sizes",
            paramLabel = "LIST",
            split = ",",
            description = "File sizes, comma-separated, each a number with an optional K, M or G (binary units; "
                    + "default: the 2008 table's, " + Figures2008.SIZES + "; with --quick: " + QUICK_SIZES + ").")
    List<String> sizes;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Timed runs of each method at each size (default: " + DEFAULT_RUNS + "; with --quick: 1).")
    Integer runs;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Directory for compare.csv, compare-runs.csv and compare.png (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("target", "compare");

    @Option(names = "--quick", description = "Tiny sizes and one run, no warm-up: checks that everything works.")
    boolean quick;

    @Option(names = "--nodelay", description = "Set TCP_NODELAY on the sending socket (turn Nagle's algorithm off).")
    boolean noDelay;

    @Option(
            names = "--no-progress",
            description = "No progress bar (there is none anyway when stderr is not a terminal).")
    boolean noProgress;

    @Override
    public Integer call() throws Exception {
        List<Long> bytes =
                parseSizes(sizes != null ? sizes : List.of((quick ? QUICK_SIZES : Figures2008.SIZES).split(",")));
        int n = runs != null ? runs : quick ? 1 : DEFAULT_RUNS;
        if (n < 1) {
            throw new ParameterException(spec.commandLine(), "--runs: " + n + " (expected: at least 1)");
        }
        PrintWriter console = spec.commandLine().getOut();
        Files.createDirectories(out);
        try (GeneratedFileSet files = GeneratedFileSet.temporary("zerocopy-compare")) {
            console.printf(
                    Locale.ROOT,
                    "Generating %d file%s (%s in all) in %s%n",
                    bytes.size(),
                    bytes.size() == 1 ? "" : "s",
                    ByteSizes.label(bytes.stream().mapToLong(Long::longValue).sum()),
                    files.directory());
            console.flush();
            files.generate(bytes, 2008);
            console.printf(
                    Locale.ROOT,
                    "File to a socket over 127.0.0.1, %d run%s of each method per size, "
                            + "interleaved; TCP_NODELAY %s; Java %s; %s %s; %d cores%n",
                    n,
                    n == 1 ? "" : "s",
                    noDelay ? "on" : "off",
                    Runtime.version(),
                    System.getProperty("os.name"),
                    System.getProperty("os.version"),
                    Runtime.getRuntime().availableProcessors());
            console.flush();
            List<ComparisonRow> rows = measure(new InterleavedRuns(bytes, files.files(), n, !quick, noDelay), n);
            CompareReport.printTable(console, rows);
            CompareReport.writeCsv(out.resolve("compare.csv"), rows, n, noDelay);
            Path png = out.resolve("compare.png");
            // the chart draws with AWT, which a trimmed runtime (a jlink image) may leave out
            boolean drawable = ModuleLayer.boot().findModule("java.desktop").isPresent();
            if (drawable) {
                ComparisonChart.write(png, rows, noDelay);
            }
            console.printf(
                    Locale.ROOT,
                    "Wrote %s, %s and %s%n",
                    out.resolve("compare.csv"),
                    out.resolve("compare-runs.csv"),
                    drawable ? png : "no chart: this Java runtime has no java.desktop module");
            console.flush();
        }
        return 0;
    }

    /** Runs the harness with progress on the terminal and every send in {@code compare-runs.csv}. */
    private List<ComparisonRow> measure(InterleavedRuns harness, int n) throws Exception {
        try (CompareProgress progress = CompareProgress.of(!noProgress, harness.sends());
                ReplacedFile runsFile = ReplacedFile.open(out.resolve("compare-runs.csv"));
                Writer runsCsv =
                        new BufferedWriter(new OutputStreamWriter(runsFile.stream(), StandardCharsets.UTF_8))) {
            runsCsv.write(CompareReport.RUNS_HEADER);
            List<ComparisonRow> rows = harness.run((size, run, method, strategy, ms) -> {
                if (run == 0) {
                    progress.step("warm-up " + method.label);
                    return;
                }
                runsCsv.write(CompareReport.runsLine(size, run, method, strategy, ms));
                progress.step(
                        String.format(Locale.ROOT, "run %d/%d, %s, %s", run, n, ByteSizes.label(size), method.label));
            });
            runsCsv.flush();
            runsFile.commit(); // the previous file stays as it was until the runs are complete
            return rows;
        }
    }

    private List<Long> parseSizes(List<String> items) {
        List<Long> parsed = new ArrayList<>();
        for (String item : items) {
            try {
                parsed.add(ByteSizes.parse(item));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--sizes: " + e.getMessage());
            }
        }
        if (parsed.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--sizes: empty (expected: at least one size)");
        }
        return parsed;
    }
}
