package io.zerocopy.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * The chart of docs/benchmarks.md: one panel per chosen cell, the median GB/s of every contender,
 * one bar per JDK.
 */
final class ReportChart {
    /** The cells drawn: pair, cell, size, title. */
    private static final String[][] PANELS = {
        {"FileToSocket", "noDelay=false peer=loopback", "1073741824", "1 GiB file to loopback socket"},
        {"FileToSocket", "noDelay=false peer=veth", "1073741824", "1 GiB file to socket over veth"},
        {"FileToFile", "", "1073741824", "1 GiB file to file"},
        {"SocketToFile", "", "67108864", "64 MiB loopback socket to file"},
    };

    private static final int WIDTH = 900;
    private static final int HEIGHT = 340;

    private ReportChart() {}

    /** Writes the panels whose cells {@code cells} (by {@link Report.Row#key()}) holds, as a PNG. */
    static void write(Map<String, Map<String, Map<String, Report.Row>>> cells, List<String> jdks, Path png)
            throws IOException {
        Charts.writePng(png, 1, () -> {
            List<Chart<?, ?>> panels = new ArrayList<>();
            for (String[] panel : PANELS) {
                Map<String, Map<String, Report.Row>> cell = cells.get(panel[0] + "|" + panel[1] + "|" + panel[2]);
                if (cell != null) {
                    panels.add(panel(panel[3], cell, jdks));
                }
            }
            if (panels.isEmpty()) {
                panels.add(Charts.empty("none of the charted cells is in these summaries", WIDTH, HEIGHT));
            }
            return panels;
        });
    }

    private static CategoryChart panel(String title, Map<String, Map<String, Report.Row>> cell, List<String> jdks) {
        CategoryChart chart = chart(title + ": GB/s (median), higher is faster");
        List<String> contenders = new ArrayList<>(cell.keySet());
        for (String jdk : jdks) {
            List<Double> gbps = new ArrayList<>();
            for (String contender : contenders) {
                Report.Row r = cell.get(contender).get(jdk);
                gbps.add(r == null ? Double.NaN : r.gbPerSecond()); // NaN: no bar
            }
            chart.addSeries("JDK " + jdk, contenders, gbps);
        }
        return chart;
    }

    private static CategoryChart chart(String title) {
        CategoryChart chart = Charts.categoryChart(title, WIDTH, HEIGHT);
        CategoryStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        styler.setLabelsVisible(true); // each bar's GB/s on it, as the docs quote them
        styler.setLabelsRotation(90);
        styler.setDecimalPattern("0.00");
        styler.setXAxisLabelRotation(30);
        styler.setAvailableSpaceFill(0.8);
        return chart;
    }
}
