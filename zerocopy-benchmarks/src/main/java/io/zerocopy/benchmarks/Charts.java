package io.zerocopy.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/** What the module's charts share: one palette, one look, and PNG files drawn off screen with XChart. */
public final class Charts {
    /** One colour per series, in series order; a series keeps its colour in every panel. */
    private static final Color[] PALETTE = {
        new Color(0x4C72B0), new Color(0xDD8452), new Color(0x55A868), new Color(0xC44E52),
        new Color(0x8172B3), new Color(0x937860), new Color(0xDA8BC3), new Color(0x8C8C8C),
        new Color(0xCCB974), new Color(0x64B5CD),
    };

    private Charts() {}

    /** The colour of the {@code index}th series (any index; the palette repeats). */
    public static Color color(int index) {
        return PALETTE[Math.floorMod(index, PALETTE.length)];
    }

    /** The look every chart here shares: white, light grid lines, no border. */
    public static void style(Styler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderVisible(false);
        styler.setLegendBorderColor(Color.WHITE);
        styler.setSeriesColors(PALETTE);
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        if (styler instanceof AxesChartStyler axes) {
            axes.setPlotGridLinesColor(new Color(0xE0E0E0));
            axes.setPlotGridLinesStroke(new BasicStroke(1));
            axes.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            axes.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        }
    }

    /** A category chart (bars, or lines over categories) of this size, in the shared look. */
    public static CategoryChart categoryChart(String title, int width, int height) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(width)
                .height(height)
                .title(title)
                .build();
        style(chart.getStyler());
        chart.getStyler().setYAxisDecimalPattern("0.0");
        return chart;
    }

    /** A panel with a title and nothing to plot (an empty bar or category chart cannot be drawn). */
    public static XYChart empty(String title, int width, int height) {
        XYChart chart =
                new XYChartBuilder().width(width).height(height).title(title).build();
        style(chart.getStyler());
        return chart;
    }

    /**
     * Draws the panels {@code charts} makes into one PNG, {@code columns} side by side, row by row,
     * each at the size of the first. Headless is set first (unless the JVM was told otherwise): the
     * image is drawn in memory and must never reach for a display.
     */
    public static void writePng(Path png, int columns, Supplier<List<? extends Chart<?, ?>>> charts)
            throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        List<BufferedImage> panels = new ArrayList<>();
        for (Chart<?, ?> chart : charts.get()) {
            panels.add(BitmapEncoder.getBufferedImage(chart));
        }
        int width = panels.get(0).getWidth();
        int height = panels.get(0).getHeight();
        int across = Math.min(columns, panels.size());
        int down = (panels.size() + across - 1) / across;
        BufferedImage image = new BufferedImage(across * width, down * height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        for (int i = 0; i < panels.size(); i++) {
            g.drawImage(panels.get(i), (i % across) * width, (i / across) * height, null);
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }
}
