package io.zerocopy.benchmarks.scale;

import io.zerocopy.benchmarks.MarkdownTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns {@code summary.csv} files of {@link ScaleBenchmark} (one per JDK or run) into markdown
 * tables and a PNG chart ({@link ScaleChart}).
 *
 * <p>Per pair, size, receiver speed and JVM flags, and per JDK and thread kind: an overview
 * (each contender's GB/s and ratio to the best at every N, and whether it stays within 5% of the
 * best at every N), then the details (CPU, direct memory, transfer times, failures).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.scale.ScaleReport <tables.md> <chart.png> <summary.csv>...}
 */
public final class ScaleReport {
    /** A contender is "within 5%" where its median paired ratio is at least this. */
    static final double WITHIN = 0.95;
    /** Less sender CPU than this over all rounds is too few of the process clock's 10 ms ticks to trust. */
    static final double TRUSTED_CPU_SECONDS = 0.5;

    private ScaleReport() {}

    /**
     * Writes the tables and the chart.
     *
     * @param args the markdown output, the PNG output, then the summaries in the order to show them
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ScaleReport <tables.md> <chart.png> <summary.csv>...");
            System.exit(2);
        }
        List<Path> summaries = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            summaries.add(Paths.get(args[i]));
        }
        write(summaries, Paths.get(args[0]), Paths.get(args[1]));
    }

    static void write(List<Path> summaries, Path markdown, Path png) throws IOException {
        List<Summary> rows = new ArrayList<>();
        for (Path summary : summaries) {
            for (String line : Files.readAllLines(summary, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("jdk,")) {
                    rows.add(Summary.parse(line));
                }
            }
        }
        Files.writeString(markdown, tables(rows), StandardCharsets.UTF_8);
        ScaleChart.draw(rows, png);
    }

    /** Rows grouped by a key, in the order keys first appear. */
    static Map<String, List<Summary>> group(List<Summary> rows, java.util.function.Function<Summary, String> key) {
        Map<String, List<Summary>> groups = new LinkedHashMap<>();
        for (Summary row : rows) {
            groups.computeIfAbsent(key.apply(row), k -> new ArrayList<>()).add(row);
        }
        return groups;
    }

    static String section(Summary row) {
        return Pair.of(row.pair()).title + ", " + Sizes.format(row.size()) + (row.slow() ? ", slow receivers" : "")
                + (row.jvm().equals("default") ? "" : ", `" + row.jvm() + "`");
    }

    static String run(Summary row) {
        return "JDK " + row.jdk() + ", " + row.threads() + " threads";
    }

    static String tables(List<Summary> rows) {
        StringBuilder md = new StringBuilder();
        for (Map.Entry<String, List<Summary>> section :
                group(rows, ScaleReport::section).entrySet()) {
            md.append("### ").append(section.getKey()).append("\n\n");
            for (Map.Entry<String, List<Summary>> run :
                    group(section.getValue(), ScaleReport::run).entrySet()) {
                md.append("**")
                        .append(run.getKey())
                        .append("**: GB/s (ratio to the best, median of paired ratios)\n\n");
                md.append(overview(run.getValue())).append('\n');
            }
            md.append("<details><summary>details</summary>\n\n")
                    .append(details(section.getValue()))
                    .append("\nCPU s/GB in parentheses: under ")
                    .append(TRUSTED_CPU_SECONDS)
                    .append(" s of CPU measured over all rounds, a few ticks of the 10 ms process clock. Direct "
                            + "memory is the whole JVM's (BufferPoolMXBean \"direct\"), peak over the run and in use "
                            + "when it started (buffers pooled by earlier runs).\n")
                    .append("\n</details>\n\n");
        }
        return md.toString();
    }

    /** Contenders down, N across; the last column says whether it held within 5% of the best at every N. */
    static String overview(List<Summary> rows) {
        TreeSet<Integer> ns = new TreeSet<>();
        rows.forEach(r -> ns.add(r.n()));
        MarkdownTable table = new MarkdownTable().column("Contender", "---");
        ns.forEach(n -> table.column("N=" + n, "---:"));
        table.column("within 5% at every N", ":---:");
        for (Map.Entry<String, List<Summary>> contender :
                group(rows, Summary::contender).entrySet()) {
            List<String> cells = new ArrayList<>();
            cells.add(contender.getKey().equals("default") ? "**default**" : contender.getKey());
            Map<Integer, Summary> byN = new LinkedHashMap<>();
            contender.getValue().forEach(r -> byN.put(r.n(), r));
            boolean holds = true;
            for (int n : ns) {
                Summary r = byN.get(n);
                if (r == null) {
                    cells.add("-");
                    holds = false;
                    continue;
                }
                holds &= r.ratio() >= WITHIN && r.failures() == 0;
                cells.add(String.format(Locale.ROOT, "%.2f (%.2f)", r.gbps(), r.ratio())
                        + (r.failures() > 0 ? " **" + r.failures() + "/" + r.transfers() + " failed**" : ""));
            }
            cells.add(holds ? "yes" : "no");
            table.row(cells);
        }
        return table.toString();
    }

    static String details(List<Summary> rows) {
        StringBuilder md = new StringBuilder("| JDK | Threads | N | Contender | Rounds | GB/s | vs best | CPU s/GB "
                + "| Direct MiB: peak | at start | p99 ms | Median ms | Failures |\n"
                + "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Summary r : rows) {
            String cpu = String.format(
                    Locale.ROOT, r.cpuSeconds() < TRUSTED_CPU_SECONDS ? "(%.2f)" : "%.2f", r.cpuSecPerGb());
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %s | %d | %.2f | %.2f | %s | %.1f | %.1f | %s | %s | %s |%n",
                    r.jdk(),
                    r.threads(),
                    r.n(),
                    r.contender(),
                    r.rounds(),
                    r.gbps(),
                    r.ratio(),
                    cpu,
                    r.peakDirectMiB(),
                    r.directStartMiB(),
                    millis(r.p99Ms()),
                    millis(r.medianMs()),
                    r.failures() == 0
                            ? "0"
                            : r.failures() + "/" + r.transfers() + ": "
                                    + r.firstFailure().replace("|", "\\|")));
        }
        return md.toString();
    }

    private static String millis(double value) {
        return Double.isNaN(value)
                ? "-"
                : value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
