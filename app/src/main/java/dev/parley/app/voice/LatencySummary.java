package dev.parley.app.voice;

import dev.parley.audio.TurnLatency;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Median and 90th percentile of each voice-loop stage over several turns, in milliseconds after
 * the end of the user's speech (turns that never reached a stage are left out of that stage).
 */
public record LatencySummary(List<StageFigures> stages) {
    /** One stage's figures. */
    public record StageFigures(TurnLatency.Stage stage, int turns, double medianMillis, double p90Millis) {
        /** A parsable line: {@code stage=first_audio turns=5 median_ms=712.3 p90_ms=780.1}. */
        public String line() {
            return String.format(Locale.ROOT, "stage=%s turns=%d median_ms=%.1f p90_ms=%.1f",
                    stage.name().toLowerCase(Locale.ROOT), turns, medianMillis, p90Millis);
        }
    }

    public LatencySummary {
        stages = List.copyOf(stages);
    }

    /** Summarizes {@code turns}; every stage after speech end gets a line (NaN figures when no turn reached it). */
    public static LatencySummary of(List<TurnLatency> turns) {
        List<StageFigures> out = new ArrayList<>();
        for (TurnLatency.Stage stage : TurnLatency.Stage.values()) {
            if (stage == TurnLatency.Stage.SPEECH_END) {
                continue;
            }
            double[] ms = turns.stream().mapToDouble(t -> t.millisAfterSpeechEnd(stage))
                    .filter(v -> !Double.isNaN(v)).sorted().toArray();
            out.add(new StageFigures(stage, ms.length, median(ms), percentile(ms, 0.9)));
        }
        return new LatencySummary(out);
    }

    /** The figures of {@code stage}. */
    public StageFigures stage(TurnLatency.Stage stage) {
        return stages.stream().filter(s -> s.stage() == stage).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no figures for " + stage));
    }

    /** Median of sorted values (mean of the two middle ones for an even count); NaN when empty. */
    static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Nearest-rank percentile of sorted values; NaN when empty. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    @Override
    public String toString() {
        return Arrays.toString(stages.stream().map(StageFigures::line).toArray());
    }
}
