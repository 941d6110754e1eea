package dev.parley.app.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The trials of a duplex run, drawn once from the seed and replayed in every condition: which
 * recording asks, which one barges in and when (after the reply's first audio), and which trials are
 * noise-only (every fourth from the second: nobody speaks during and after the reply).
 */
record DuplexPlan(List<Trial> trials) {
    /** One trial; {@code bargeIn} is -1 in a noise-only trial. */
    record Trial(int question, int bargeIn, int bargeInDelayMs) {
        boolean noiseOnly() {
            return bargeIn < 0;
        }
    }

    static final int MIN_DELAY_MS = 300;
    static final int DELAY_SPREAD_MS = 1500;

    static DuplexPlan draw(int trials, int recordings, long seed) {
        if (recordings < 2) {
            throw new IllegalArgumentException("expected at least two speech recordings (a question and a barge-in) but found "
                    + recordings);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < trials; i++) {
            int q = rnd.nextInt(recordings);
            int b = (q + 1 + rnd.nextInt(recordings - 1)) % recordings;
            int delay = MIN_DELAY_MS + rnd.nextInt(DELAY_SPREAD_MS);
            out.add(i % 4 == 1 ? new Trial(q, -1, 0) : new Trial(q, b, delay));
        }
        return new DuplexPlan(out);
    }

    long noiseOnly() {
        return trials.stream().filter(Trial::noiseOnly).count();
    }
}
