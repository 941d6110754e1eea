package dev.parley.models.download;

import java.util.Locale;

/** Formats byte counts for people (binary units: 1 MiB = 1048576 bytes, shown as "MB" as most tools do). */
public final class Bytes {
    private Bytes() {
    }

    public static String human(long bytes) {
        if (bytes < 0) {
            return "?";
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }

    /** Mebibytes with two decimals, as in the fixture manifest ("20.29"). */
    public static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.2f", bytes / (1024.0 * 1024.0));
    }
}
