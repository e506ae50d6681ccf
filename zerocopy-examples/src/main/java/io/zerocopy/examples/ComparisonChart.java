package io.zerocopy.examples;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The compare command's chart: time against file size for both methods, today's and 2008's, on log-log axes. */
final class ComparisonChart {
    private static final Color LOOP = new Color(0xC0, 0x39, 0x2B);
    private static final Color TRANSFER_TO = new Color(0x1F, 0x5F, 0xAF);
    private static final Color AUTO = new Color(0x2E, 0x8B, 0x57);
    private static final BasicStroke DASHED =
            new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f);
    private static final BasicStroke SOLID = new BasicStroke(2.5f);

    private ComparisonChart() {}

    /** Writes the chart of these rows as a PNG to {@code png}. */
    static void write(Path png, List<ComparisonRow> rows, boolean noDelay) throws IOException {
        // drawn in memory: never reach for a display (unless the JVM was told otherwise)
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(560)
                .title("File to a socket over loopback: 4 KiB buffers vs transferTo"
                        + (noDelay ? " (TCP_NODELAY on)" : " (Nagle on)"))
                .xAxisTitle("File size (MiB)")
                .yAxisTitle("Time (ms, median)")
                .build();
        XYStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(true);
        styler.setMarkerSize(7);
        styler.setXAxisDecimalPattern("#,##0.###");
        styler.setYAxisDecimalPattern("#,##0.###");

        List<ComparisonRow> original = new ArrayList<>();
        for (ComparisonRow r : rows) {
            if (r.original() != null) {
                original.add(r);
            }
        }
        if (!original.isEmpty()) {
            add(chart, "4 KiB read/write loop, 2008", original, r -> r.original()[0], LOOP, DASHED);
            add(chart, "transferTo, 2008", original, r -> r.original()[1], TRANSFER_TO, DASHED);
        }
        String today = "Java " + Runtime.version().feature() + ", today";
        add(chart, "buffered 4 KiB, " + today, rows, ComparisonRow::buffered4k, LOOP, SOLID);
        add(chart, "transferTo, " + today, rows, ComparisonRow::transferTo, TRANSFER_TO, SOLID);
        add(chart, "library's own choice, " + today, rows, ComparisonRow::auto, AUTO, SOLID);

        // the previous chart stays as it was until this one is complete
        ReplacedFile.write(png, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
    }

    private static void add(
            XYChart chart,
            String name,
            List<ComparisonRow> rows,
            ToDoubleFunction<ComparisonRow> ms,
            Color color,
            BasicStroke stroke) {
        double[] x = new double[rows.size()];
        double[] y = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            x[i] = rows.get(i).size() / 1048576.0;
            y[i] = ms.applyAsDouble(rows.get(i));
        }
        XYSeries series = chart.addSeries(name, x, y);
        series.setLineColor(color);
        series.setMarkerColor(color);
        series.setLineStyle(stroke);
        series.setMarker(stroke == DASHED ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
    }
}
