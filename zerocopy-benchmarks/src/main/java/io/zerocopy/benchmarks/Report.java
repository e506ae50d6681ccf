package io.zerocopy.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * Turns the {@code summary.csv} files of {@link CommittedRun} (one per JDK) into the markdown tables
 * of docs/benchmarks.md and a PNG bar chart, with nothing but the JDK (Java2D, headless).
 *
 * <p>{@code java -cp benchmarks.jar io.zerocopy.benchmarks.Report <tables.md> <chart.png> <summary.csv>...}
 */
public final class Report {
    static final String CSV_HEADER =
            "jdk,pair,size,cell,contender,medianMs,minMs,maxMs,cpuMsPerGB,allocBytesPerOp,threadAllocBytesPerOp";

    /** The cells drawn in the chart: pair, cell, size, title. */
    private static final String[][] CHART = {
        {"FileToSocket", "noDelay=false peer=loopback", "1073741824", "1 GiB file to loopback socket"},
        {"FileToSocket", "noDelay=false peer=veth", "1073741824", "1 GiB file to socket over veth"},
        {"FileToFile", "", "1073741824", "1 GiB file to file"},
        {"SocketToFile", "", "67108864", "64 MiB loopback socket to file"},
    };

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
        chart(rows, List.copyOf(jdks), Paths.get(args[1]));
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
        StringBuilder md = new StringBuilder("| Pair | Size | Cell |");
        StringBuilder rule = new StringBuilder("|---|---|---|");
        for (String jdk : jdks) {
            md.append(" JDK ").append(jdk).append(": default vs fastest | fastest |");
            rule.append("---:|---|");
        }
        md.append('\n').append(rule).append('\n');
        for (Map.Entry<String, Map<String, Map<String, Row>>> cell :
                byCell(rows).entrySet()) {
            String[] key = cell.getKey().split("\\|", -1);
            md.append("| ")
                    .append(key[0])
                    .append(" | ")
                    .append(size(Long.parseLong(key[2])))
                    .append(" | ")
                    .append(key[1])
                    .append(" |");
            for (String jdk : jdks) {
                double fastest = fastest(cell.getValue(), jdk);
                Row def = cell.getValue().getOrDefault("default", Map.of()).get(jdk);
                String winner = cell.getValue().entrySet().stream()
                        .filter(e ->
                                e.getValue().get(jdk) != null && e.getValue().get(jdk).medianMs == fastest)
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElse("-");
                md.append(def == null ? " - |" : String.format(Locale.ROOT, " %.2f |", def.medianMs / fastest))
                        .append(' ')
                        .append(winner)
                        .append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String tables(List<Row> rows, List<String> jdks) {
        StringBuilder md = new StringBuilder(summary(rows, jdks));
        StringBuilder head = new StringBuilder("| Contender |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String jdk : jdks) {
            head.append(" JDK ").append(jdk).append(" ms | GB/s | vs fastest | CPU ms/GB | alloc B/op |");
            rule.append("---:|---:|---:|---:|---:|");
        }
        for (Map.Entry<String, Map<String, Map<String, Row>>> cell :
                byCell(rows).entrySet()) {
            String[] key = cell.getKey().split("\\|", -1);
            md.append("\n**")
                    .append(key[0])
                    .append(", ")
                    .append(size(Long.parseLong(key[2])))
                    .append(key[1].isEmpty() ? "" : ", " + key[1])
                    .append("**\n\n");
            md.append(head).append('\n').append(rule).append('\n');
            for (Map.Entry<String, Map<String, Row>> contender : cell.getValue().entrySet()) {
                md.append("| ")
                        .append(contender.getKey().equals("default") ? "**default**" : contender.getKey())
                        .append(" |");
                for (String jdk : jdks) {
                    Row r = contender.getValue().get(jdk);
                    if (r == null || Double.isNaN(r.medianMs)) {
                        md.append(" - | - | - | - | - |");
                        continue;
                    }
                    md.append(String.format(
                            Locale.ROOT,
                            " %s | %.2f | %.2f | %.0f | %s |",
                            ms(r.medianMs),
                            r.gbPerSecond(),
                            r.medianMs / fastest(cell.getValue(), jdk),
                            r.cpuMsPerGb,
                            bytes(r.allocBytes)));
                }
                md.append('\n');
            }
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

    private static void chart(List<Row> rows, List<String> jdks, Path png) throws IOException {
        Map<String, Map<String, Map<String, Row>>> cells = byCell(rows);
        Color[] colors = {new Color(0x4C72B0), new Color(0xDD8452), new Color(0x55A868)};
        int width = 900;
        int barHeight = 9;
        int labelWidth = 150;
        List<String[]> panels = new ArrayList<>();
        int height = 40;
        for (String[] panel : CHART) {
            Map<String, Map<String, Row>> cell = cells.get(panel[0] + "|" + panel[1] + "|" + panel[2]);
            if (cell != null) {
                panels.add(panel);
                height += 40 + cell.size() * (jdks.size() * barHeight + 6);
            }
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        int y = 20;
        g.setColor(Color.BLACK);
        g.drawString("Throughput, GB/s (median); longer is faster", 10, y);
        for (int j = 0; j < jdks.size(); j++) {
            g.setColor(colors[j % colors.length]);
            g.fillRect(400 + j * 90, y - 9, 10, 10);
            g.setColor(Color.BLACK);
            g.drawString("JDK " + jdks.get(j), 414 + j * 90, y);
        }
        y += 20;
        for (String[] panel : panels) {
            Map<String, Map<String, Row>> cell = cells.get(panel[0] + "|" + panel[1] + "|" + panel[2]);
            double max = cell.values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToDouble(Row::gbPerSecond)
                    .filter(v -> !Double.isNaN(v))
                    .max()
                    .orElse(1);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
            g.setColor(Color.BLACK);
            g.drawString(panel[3], 10, y + 14);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            y += 24;
            int plot = width - labelWidth - 70;
            for (Map.Entry<String, Map<String, Row>> contender : cell.entrySet()) {
                g.setColor(Color.BLACK);
                g.drawString(contender.getKey(), 10, y + jdks.size() * barHeight / 2 + 4);
                for (int j = 0; j < jdks.size(); j++) {
                    Row r = contender.getValue().get(jdks.get(j));
                    if (r != null && !Double.isNaN(r.medianMs)) {
                        int w = (int) Math.round(plot * r.gbPerSecond() / max);
                        g.setColor(colors[j % colors.length]);
                        g.fillRect(labelWidth, y, w, barHeight - 1);
                        g.setColor(Color.DARK_GRAY);
                        g.drawString(
                                String.format(Locale.ROOT, "%.2f", r.gbPerSecond()),
                                labelWidth + w + 4,
                                y + barHeight - 1);
                    }
                    y += barHeight;
                }
                y += 6;
            }
            g.setColor(Color.LIGHT_GRAY);
            g.setStroke(new BasicStroke(1));
            g.drawLine(labelWidth, y - 4, width - 20, y - 4);
            y += 16;
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }
}
