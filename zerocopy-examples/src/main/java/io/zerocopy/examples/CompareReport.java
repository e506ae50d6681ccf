package io.zerocopy.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code compare}'s results written out: the markdown table beside the 2008 figures,
 * {@code compare.csv} (one line per size) and the lines of {@code compare-runs.csv} (one per send).
 */
final class CompareReport {
    /** The header of {@code compare-runs.csv}. */
    static final String RUNS_HEADER = "size_bytes,run,method,strategy,ms\n";

    private CompareReport() {}

    /** One line of {@code compare-runs.csv}. */
    static String runsLine(long size, int run, CompareMethod method, String strategy, double ms) {
        return String.format(Locale.ROOT, "%d,%d,%s,%s,%.3f%n", size, run, method.label, strategy, ms);
    }

    /** The table of medians beside the 2008 figures, and a line on how to read it. */
    static void printTable(PrintWriter console, List<ComparisonRow> rows) {
        console.println();
        console.println("| Size | 2008 loop ms | 2008 transferTo ms | 2008 saved | buffered 4 KiB ms | transferTo ms "
                + "| auto ms | transferTo / buffered 4 KiB | saved |");
        console.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (ComparisonRow r : rows) {
            long[] o = r.original();
            console.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %.1f | %.1f | %.1f (%s) | %.2f | %.0f%% |%n",
                    ByteSizes.label(r.size()),
                    o == null ? "-" : o[0],
                    o == null ? "-" : o[1],
                    o == null ? "-" : String.format(Locale.ROOT, "%.0f%%", (1 - (double) o[1] / o[0]) * 100),
                    r.buffered4k(),
                    r.transferTo(),
                    r.auto(),
                    r.autoStrategy(),
                    r.ratio(),
                    r.saved());
        }
        console.println();
        console.println(
                "Medians; \"transferTo / buffered 4 KiB\" is the median of the per-run ratios; \"saved\" is 1 minus it.");
        console.flush();
    }

    /** {@code compare.csv}: one line per size, the medians, the 2008 figures and how they were measured. */
    static void writeCsv(Path csv, List<ComparisonRow> rows, int runs, boolean noDelay) throws IOException {
        // loop_* is buffered 4 KiB: the columns keep their names so that older files still read alike
        StringBuilder text = new StringBuilder("size_bytes,loop_ms,transferto_ms,auto_ms,auto_strategy,"
                + "transferto_vs_loop,saved_percent,original_loop_ms,original_transferto_ms,runs,nodelay\n");
        for (ComparisonRow r : rows) {
            long[] o = r.original();
            text.append(String.format(
                    Locale.ROOT,
                    "%d,%.3f,%.3f,%.3f,%s,%.4f,%.1f,%s,%s,%d,%b%n",
                    r.size(),
                    r.buffered4k(),
                    r.transferTo(),
                    r.auto(),
                    r.autoStrategy(),
                    r.ratio(),
                    r.saved(),
                    o == null ? "" : o[0],
                    o == null ? "" : o[1],
                    runs,
                    noDelay));
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        ReplacedFile.write(csv, out -> out.write(bytes));
    }
}
