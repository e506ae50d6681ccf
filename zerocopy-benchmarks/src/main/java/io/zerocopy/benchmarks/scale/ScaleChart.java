package io.zerocopy.benchmarks.scale;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import javax.imageio.ImageIO;

/**
 * Draws aggregate GB/s against N, one line per contender, one panel per pair, size, JDK and thread
 * kind that was run at more than one N (default JVM flags, fast receivers only). Java2D, headless,
 * nothing but the JDK, like the module's {@code Report}.
 */
final class ScaleChart {
    private static final Color[] COLORS = {
        new Color(0x4C72B0), new Color(0xDD8452), new Color(0x55A868), new Color(0xC44E52),
        new Color(0x8172B3), new Color(0x937860), new Color(0xDA8BC3), new Color(0x8C8C8C),
        new Color(0xCCB974), new Color(0x64B5CD),
    };
    private static final int PANEL_WIDTH = 460;
    private static final int PANEL_HEIGHT = 270;
    private static final int COLUMNS = 2;
    private static final int LEGEND_HEIGHT = 50;

    private ScaleChart() {}

    static void draw(List<Summary> rows, Path png) throws IOException {
        List<Summary> drawn = new ArrayList<>();
        for (Summary row : rows) {
            if (!row.slow() && row.jvm().equals("default")) {
                drawn.add(row);
            }
        }
        List<List<Summary>> panels = new ArrayList<>();
        for (List<Summary> panel : ScaleReport.group(drawn, r -> ScaleReport.section(r) + " | " + ScaleReport.run(r))
                .values()) {
            if (panel.stream().map(Summary::n).distinct().count() > 1) {
                panels.add(panel);
            }
        }
        List<String> contenders = new ArrayList<>(
                new LinkedHashSet<>(drawn.stream().map(Summary::contender).toList()));
        int rowsOfPanels = Math.max(1, (panels.size() + COLUMNS - 1) / COLUMNS);
        int width = COLUMNS * PANEL_WIDTH;
        int height = LEGEND_HEIGHT + rowsOfPanels * PANEL_HEIGHT;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setColor(Color.BLACK);
        g.drawString("Aggregate GB/s (median over rounds) against N transfers at once; higher is better", 10, 16);
        for (int i = 0; i < contenders.size(); i++) {
            int x = 10 + (i % 8) * 112;
            int y = 32 + (i / 8) * 14;
            g.setColor(color(contenders, contenders.get(i)));
            g.fillRect(x, y - 8, 14, 4);
            g.setColor(Color.BLACK);
            g.drawString(contenders.get(i), x + 18, y);
        }
        for (int p = 0; p < panels.size(); p++) {
            panel(
                    g,
                    panels.get(p),
                    contenders,
                    (p % COLUMNS) * PANEL_WIDTH,
                    LEGEND_HEIGHT + (p / COLUMNS) * PANEL_HEIGHT);
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static void panel(Graphics2D g, List<Summary> rows, List<String> contenders, int left, int top) {
        int plotLeft = left + 50;
        int plotRight = left + PANEL_WIDTH - 20;
        int plotTop = top + 30;
        int plotBottom = top + PANEL_HEIGHT - 40;
        List<Integer> ns =
                new ArrayList<>(new TreeSet<>(rows.stream().map(Summary::n).toList()));
        double max = rows.stream()
                .mapToDouble(Summary::gbps)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(1);
        double top1 = Math.ceil(max * 2) / 2; // the axis ends at the next 0.5 GB/s
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.setColor(Color.BLACK);
        Summary first = rows.get(0);
        g.drawString(ScaleReport.section(first) + ", " + ScaleReport.run(first), left + 10, top + 18);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        g.setStroke(new BasicStroke(1));
        for (int t = 0; t <= 4; t++) {
            double value = top1 * t / 4;
            int y = plotBottom - (int) Math.round((plotBottom - plotTop) * value / top1);
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(plotLeft, y, plotRight, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%.2f", value), left + 14, y + 4);
        }
        for (int i = 0; i < ns.size(); i++) {
            int x = xOf(i, ns.size(), plotLeft, plotRight);
            g.drawString("N=" + ns.get(i), x - 12, plotBottom + 16);
        }
        g.setStroke(new BasicStroke(2));
        for (Map.Entry<String, List<Summary>> line :
                ScaleReport.group(rows, Summary::contender).entrySet()) {
            g.setColor(color(contenders, line.getKey()));
            int lastX = -1;
            int lastY = -1;
            for (Summary r : line.getValue()) {
                if (Double.isNaN(r.gbps())) {
                    continue;
                }
                int x = xOf(ns.indexOf(r.n()), ns.size(), plotLeft, plotRight);
                int y = plotBottom - (int) Math.round((plotBottom - plotTop) * r.gbps() / top1);
                g.fillOval(x - 3, y - 3, 6, 6);
                if (lastX >= 0) {
                    g.drawLine(lastX, lastY, x, y);
                }
                lastX = x;
                lastY = y;
            }
        }
    }

    private static int xOf(int index, int count, int plotLeft, int plotRight) {
        return count == 1
                ? (plotLeft + plotRight) / 2
                : plotLeft + 20 + (plotRight - plotLeft - 40) * index / (count - 1);
    }

    private static Color color(List<String> contenders, String name) {
        return COLORS[Math.max(0, contenders.indexOf(name)) % COLORS.length];
    }
}
