package io.zerocopy.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns the {@code summary.csv} files of {@link CommittedRun} (one per JDK) into the markdown tables
 * of docs/benchmarks.md and its PNG bar chart ({@link ReportChart}).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.Report <tables.md> <chart.png> <summary.csv>...}
 */
public final class Report {
    static final String CSV_HEADER =
            "jdk,pair,size,cell,contender,medianMs,minMs,maxMs,cpuMsPerGB,allocBytesPerOp,threadAllocBytesPerOp";

    private Report() {}

    /** One line of a summary. */
    static final class Row {
        final String jdk;
        final String pair;
        final long size;
        final String cell;
        final String contender;
        final double medianMs;
        final double cpuMsPerGb;
        final double allocBytes;

        Row(String line) {
            String[] f = line.split(",", -1);
            jdk = f[0];
            pair = f[1];
            size = Long.parseLong(f[2]);
            cell = f[3];
            contender = f[4];
            medianMs = Double.parseDouble(f[5]);
            cpuMsPerGb = Double.parseDouble(f[8]);
            // the copying thread's own allocation where the summary has it, else JMH's whole-JVM figure
            allocBytes = Double.parseDouble(f.length > 10 ? f[10] : f[9]);
        }

        String key() {
            return pair + "|" + cell + "|" + size;
        }

        double gbPerSecond() {
            return size / (medianMs * 1e6);
        }
    }

    /**
     * Writes the tables and the chart.
     *
     * @param args the markdown output, the PNG output, then the summaries
     */
    public static void main(String[] args) throws IOException {
        List<Row> rows = new ArrayList<>();
        Set<String> jdks = new LinkedHashSet<>();
        for (int i = 2; i < args.length; i++) {
            for (String line : Files.readAllLines(Paths.get(args[i]), StandardCharsets.UTF_8)) {
                if (!line.startsWith("jdk,") && !line.isBlank()) {
                    Row row = new Row(line);
                    rows.add(row);
                    jdks.add(row.jdk);
                }
            }
        }
        Files.writeString(Paths.get(args[0]), tables(rows, List.copyOf(jdks)), StandardCharsets.UTF_8);
        ReportChart.write(byCell(rows), List.copyOf(jdks), Paths.get(args[1]));
    }

    /** Rows grouped by cell, then contender, then JDK; in the order they were run. */
    private static Map<String, Map<String, Map<String, Row>>> byCell(List<Row> rows) {
        Map<String, Map<String, Map<String, Row>>> cells = new LinkedHashMap<>();
        for (Row row : rows) {
            cells.computeIfAbsent(row.key(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(row.contender, k -> new LinkedHashMap<>())
                    .put(row.jdk, row);
        }
        return cells;
    }

    private static double fastest(Map<String, Map<String, Row>> cell, String jdk) {
        return cell.values().stream()
                .map(m -> m.get(jdk))
                .filter(r -> r != null && !Double.isNaN(r.medianMs))
                .mapToDouble(r -> r.medianMs)
                .min()
                .orElse(Double.NaN);
    }

    /** Per cell: the default's time over the fastest contender's, and which one that was. */
    static String summary(List<Row> rows, List<String> jdks) {
        MarkdownTable table =
                new MarkdownTable().column("Pair", "---").column("Size", "---").column("Cell", "---");
        for (String jdk : jdks) {
            table.column("JDK " + jdk + ": default vs fastest", "---:").column("fastest", "---");
        }
        for (Map.Entry<String, Map<String, Map<String, Row>>> cell :
                byCell(rows).entrySet()) {
            String[] key = cell.getKey().split("\\|", -1);
            List<String> cells = new ArrayList<>(List.of(key[0], size(Long.parseLong(key[2])), key[1]));
            for (String jdk : jdks) {
                double fastest = fastest(cell.getValue(), jdk);
                Row def = cell.getValue().getOrDefault("default", Map.of()).get(jdk);
                cells.add(def == null ? "-" : String.format(Locale.ROOT, "%.2f", def.medianMs / fastest));
                cells.add(cell.getValue().entrySet().stream()
                        .filter(e ->
                                e.getValue().get(jdk) != null && e.getValue().get(jdk).medianMs == fastest)
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElse("-"));
            }
            table.row(cells);
        }
        return table.toString();
    }

    /** The summary, then per cell every contender's time, throughput, ratio, CPU and allocation per JDK. */
    static String tables(List<Row> rows, List<String> jdks) {
        StringBuilder md = new StringBuilder(summary(rows, jdks));
        for (Map.Entry<String, Map<String, Map<String, Row>>> cell :
                byCell(rows).entrySet()) {
            String[] key = cell.getKey().split("\\|", -1);
            md.append("\n**")
                    .append(key[0])
                    .append(", ")
                    .append(size(Long.parseLong(key[2])))
                    .append(key[1].isEmpty() ? "" : ", " + key[1])
                    .append("**\n\n");
            MarkdownTable table = new MarkdownTable().column("Contender", "---");
            for (String jdk : jdks) {
                table.column("JDK " + jdk + " ms", "---:")
                        .column("GB/s", "---:")
                        .column("vs fastest", "---:")
                        .column("CPU ms/GB", "---:")
                        .column("alloc B/op", "---:");
            }
            for (Map.Entry<String, Map<String, Row>> contender : cell.getValue().entrySet()) {
                List<String> cells = new ArrayList<>();
                cells.add(contender.getKey().equals("default") ? "**default**" : contender.getKey());
                for (String jdk : jdks) {
                    Row r = contender.getValue().get(jdk);
                    if (r == null || Double.isNaN(r.medianMs)) {
                        cells.addAll(List.of("-", "-", "-", "-", "-"));
                        continue;
                    }
                    cells.add(ms(r.medianMs));
                    cells.add(String.format(Locale.ROOT, "%.2f", r.gbPerSecond()));
                    cells.add(String.format(Locale.ROOT, "%.2f", r.medianMs / fastest(cell.getValue(), jdk)));
                    cells.add(String.format(Locale.ROOT, "%.0f", r.cpuMsPerGb));
                    cells.add(bytes(r.allocBytes));
                }
                table.row(cells);
            }
            md.append(table);
        }
        return md.toString();
    }

    private static String ms(double value) {
        return value >= 100
                ? String.format(Locale.ROOT, "%.0f", value)
                : value >= 1 ? String.format(Locale.ROOT, "%.2f", value) : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20) {
            return (bytes >> 20) + " MiB";
        }
        return (bytes >> 10) + " KiB";
    }
}
