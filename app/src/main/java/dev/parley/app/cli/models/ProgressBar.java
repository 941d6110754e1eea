package dev.parley.app.cli.models;

import dev.parley.models.download.Bytes;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.download.ProgressListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * A one-line terminal progress bar: {@code [#########.........]  45%  290.1/644.4 MB  12.3 MB/s  ETA 0:29}, redrawn
 * in place with a carriage return, ended with a newline when the download is done.
 */
public final class ProgressBar implements ProgressListener {
    private static final int WIDTH = 30;
    private final PrintWriter out;
    private final String label;
    private int lastLength;

    public ProgressBar(PrintWriter out, String label) {
        this.out = out;
        this.label = label;
    }

    @Override
    public void onProgress(DownloadProgress p) {
        String line = render(label, p);
        out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
        lastLength = line.length();
        if (p.phase() == DownloadProgress.Phase.DONE) {
            out.println();
            lastLength = 0;
        }
        out.flush();
    }

    /** Ends a line left open by an interrupted download, so that an error message starts on its own line. */
    public void end() {
        if (lastLength > 0) {
            out.println();
            out.flush();
            lastLength = 0;
        }
    }

    static String render(String label, DownloadProgress p) {
        StringBuilder sb = new StringBuilder(label).append(' ');
        double f = p.fraction();
        int filled = f < 0 ? 0 : (int) Math.floor(f * WIDTH);
        sb.append('[').append("#".repeat(filled)).append(".".repeat(WIDTH - filled)).append("] ");
        sb.append(f < 0 ? "  ?%" : String.format(Locale.ROOT, "%3d%%", (int) Math.floor(f * 100)));
        sb.append("  ").append(mb(p.bytesDone())).append('/')
                .append(p.bytesTotal() < 0 ? "?" : mb(p.bytesTotal())).append(" MB");
        switch (p.phase()) {
            case CONNECTING -> sb.append("  connecting");
            case VERIFYING -> sb.append("  verifying");
            case UNPACKING -> sb.append("  unpacking");
            case DONE -> sb.append("  done");
            case DOWNLOADING -> {
                if (p.bytesPerSecond() > 0) {
                    sb.append("  ").append(Bytes.human((long) p.bytesPerSecond())).append("/s");
                }
                if (p.eta() != null) {
                    sb.append("  ETA ").append(clock(p.eta()));
                }
            }
            default -> { }
        }
        return sb.toString();
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
    }

    static String clock(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
