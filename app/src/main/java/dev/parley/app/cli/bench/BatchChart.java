package dev.parley.app.cli.bench;

import dev.parley.engine.batch.BatchBenchmark.Run;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The PNG chart of {@code parley bench batch}, drawn with Java2D (headless): throughput per batch size (baseline
 * and Parley side by side), and, when the Poisson run was made, static against continuous batching.
 */
final class BatchChart {

    private static final Color BASELINE = new Color(0x9AA5B1);
    private static final Color PARLEY = new Color(0x2F6FEB);
    private static final Color STATIC = new Color(0xE0A030);

    private BatchChart() {
    }

    static void write(List<BatchReport.Row> rows, BatchReport.Poisson poisson, Path file) throws IOException {
        int width = poisson == null ? 640 : 1040;
        int height = 420;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            List<String> labels = new ArrayList<>();
            List<double[]> values = new ArrayList<>();
            for (BatchReport.Row r : rows) {
                labels.add("batch " + r.batch());
                values.add(new double[] {r.baseline() == null ? 0 : r.baseline().tokensPerSecond(),
                        r.parley().tokensPerSecond()});
            }
            bars(g, 0, 600, height, "Throughput (generated tokens/s)", labels, values,
                    new String[] {"baseline", "Parley"}, new Color[] {BASELINE, PARLEY});
            if (poisson != null) {
                Run s = poisson.staticRun();
                Run c = poisson.continuousRun();
                bars(g, 600, 440, height, "Poisson arrivals: static vs continuous",
                        List.of("tokens/s", "P50 latency (s)", "P99 latency (s)"),
                        List.of(new double[] {s.tokensPerSecond(), c.tokensPerSecond()},
                                new double[] {s.p50LatencyMs() / 1e3, c.p50LatencyMs() / 1e3},
                                new double[] {s.p99LatencyMs() / 1e3, c.p99LatencyMs() / 1e3}),
                        new String[] {"static", "continuous"}, new Color[] {STATIC, PARLEY});
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    /** A grouped bar chart in the panel {@code [x0, x0 + w)}; each group's bars are scaled to the group's maximum. */
    private static void bars(Graphics2D g, int x0, int w, int h, String title, List<String> groups,
                             List<double[]> values, String[] series, Color[] colors) {
        int left = x0 + 40;
        int right = x0 + w - 20;
        int top = 60;
        int bottom = h - 50;
        g.setColor(Color.DARK_GRAY);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int i = 0; i < series.length; i++) {
            g.setColor(colors[i]);
            g.fillRect(left + i * 110, 38, 12, 12);
            g.setColor(Color.DARK_GRAY);
            g.drawString(series[i], left + i * 110 + 16, 49);
        }
        g.setStroke(new BasicStroke(1f));
        g.drawLine(left, bottom, right, bottom);
        int groupWidth = (right - left) / Math.max(1, groups.size());
        double max = 0;
        boolean shared = groups.stream().allMatch(s -> s.startsWith("batch"));
        for (double[] v : values) {
            for (double d : v) {
                max = Math.max(max, d);
            }
        }
        for (int gi = 0; gi < groups.size(); gi++) {
            double[] v = values.get(gi);
            double scale = shared ? max : java.util.Arrays.stream(v).max().orElse(1);
            int barWidth = Math.max(6, (groupWidth - 20) / v.length);
            for (int i = 0; i < v.length; i++) {
                int bh = scale <= 0 ? 0 : (int) Math.round((bottom - top - 20) * v[i] / scale);
                int bx = left + gi * groupWidth + 10 + i * barWidth;
                g.setColor(colors[i]);
                g.fillRect(bx, bottom - bh, barWidth - 4, bh);
                g.setColor(Color.DARK_GRAY);
                String text = v[i] >= 100 ? String.format(Locale.ROOT, "%.0f", v[i])
                        : String.format(Locale.ROOT, "%.1f", v[i]);
                g.drawString(text, bx, bottom - bh - 4);
            }
            g.drawString(groups.get(gi), left + gi * groupWidth + 10, bottom + 18);
        }
    }
}
