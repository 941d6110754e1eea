package dev.parley.app.cli;

import dev.parley.engine.model.LoadProgress;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.WeightFormat;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Shows the progress of quantizing on load on stderr, in steps of 10%, for models large enough to take a moment
 * (from 64 MiB of file); silent otherwise.
 */
public final class QuantizeProgress implements LoadProgress {

    /** Files below this size load fast enough that progress is only noise. */
    static final long THRESHOLD = 64L << 20;

    private final PrintStream err;
    private int lastTenth = -1;

    QuantizeProgress(PrintStream err) {
        this.err = err;
    }

    /** Progress on stderr when {@code options} quantize and the file is large, else {@link LoadProgress#NONE}. */
    public static LoadProgress forFile(Path path, ModelOptions options) {
        try {
            if (options.weights() == WeightFormat.INT8 && Files.size(path) >= THRESHOLD) {
                return new QuantizeProgress(System.err);
            }
        } catch (java.io.IOException e) {
            // The load itself will report the problem.
        }
        return LoadProgress.NONE;
    }

    @Override
    public synchronized void update(long done, long total) {
        int tenth = (int) (10 * done / Math.max(1, total));
        if (tenth > lastTenth) {
            lastTenth = tenth;
            err.printf(Locale.ROOT, "parley: quantizing weights to int8: %d%% (%.0f of %.0f MB)%n", 10 * tenth,
                    done / 1e6, total / 1e6);
        }
    }
}
