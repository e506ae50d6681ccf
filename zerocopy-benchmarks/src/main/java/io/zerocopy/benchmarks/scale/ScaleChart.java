package io.zerocopy.benchmarks.scale;

import io.zerocopy.benchmarks.Charts;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * Draws aggregate GB/s against N, one line per contender, one panel per pair, size, JDK and thread
 * kind that was run at more than one N (default JVM flags, fast receivers only). A contender has
 * the same colour in every panel.
 */
final class ScaleChart {
    private static final int PANEL_WIDTH = 600;
    private static final int PANEL_HEIGHT = 330;
    private static final int COLUMNS = 2;

    private ScaleChart() {}

    static void draw(List<Summary> rows, Path png) throws IOException {
        List<Summary> drawn = new ArrayList<>();
        for (Summary row : rows) {
            if (!row.slow() && row.jvm().equals("default")) {
                drawn.add(row);
            }
        }
        List<String> contenders = new ArrayList<>(
                new LinkedHashSet<>(drawn.stream().map(Summary::contender).toList()));
        Charts.writePng(png, COLUMNS, () -> {
            List<Chart<?, ?>> panels = new ArrayList<>();
            for (List<Summary> panel : ScaleReport.group(
                            drawn, r -> ScaleReport.section(r) + " | " + ScaleReport.run(r))
                    .values()) {
                if (panel.stream().map(Summary::n).distinct().count() > 1) {
                    panels.add(panel(panel, contenders));
                }
            }
            if (panels.isEmpty()) {
                panels.add(Charts.empty("no cell was run at more than one N", PANEL_WIDTH, PANEL_HEIGHT));
            }
            return panels;
        });
    }

    private static CategoryChart panel(List<Summary> rows, List<String> contenders) {
        Summary first = rows.get(0);
        CategoryChart chart = chart(ScaleReport.section(first) + ", " + ScaleReport.run(first));
        List<Integer> ns =
                new ArrayList<>(new TreeSet<>(rows.stream().map(Summary::n).toList()));
        List<String> xs = ns.stream().map(n -> "N=" + n).toList();
        for (Map.Entry<String, List<Summary>> line :
                ScaleReport.group(rows, Summary::contender).entrySet()) {
            Double[] gbps = new Double[ns.size()]; // null where not run: a gap in the line
            line.getValue().forEach(r -> gbps[ns.indexOf(r.n())] = Double.isNaN(r.gbps()) ? null : r.gbps());
            CategorySeries series = chart.addSeries(line.getKey(), xs, Arrays.asList(gbps));
            Color color = Charts.color(contenders.indexOf(line.getKey()));
            series.setLineColor(color);
            series.setMarkerColor(color);
        }
        return chart;
    }

    private static CategoryChart chart(String title) {
        CategoryChart chart = Charts.categoryChart(title, PANEL_WIDTH, PANEL_HEIGHT);
        chart.setYAxisTitle("aggregate GB/s (median)");
        CategoryStyler styler = chart.getStyler();
        styler.setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        styler.setOverlapped(true); // every contender's point at its N, not side by side like bars
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setYAxisMin(0.0);
        styler.setMarkerSize(6);
        return chart;
    }
}
