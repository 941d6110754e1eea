package dev.parley.engine.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SamplerTest {

    private static float[] randomLogits(int n, long seed) {
        Random r = new Random(seed);
        float[] logits = new float[n];
        for (int i = 0; i < n; i++) {
            logits[i] = (float) (r.nextGaussian() * 3);
        }
        return logits;
    }

    private static int argmaxByHand(float[] logits) {
        int best = 0;
        for (int i = 0; i < logits.length; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }

    private static SamplingSettings settings(float temperature, int topK, float topP, float minP, long seed) {
        return new SamplingSettings(temperature, topK, topP, minP, 1f, 0, seed);
    }

    @Test
    void greedyPicksTheArgmaxAndTheLowestIdOnTies() {
        for (long seed = 0; seed < 20; seed++) {
            float[] logits = randomLogits(5000, seed);
            assertEquals(argmaxByHand(logits), Sampler.create(SamplingSettings.greedy()).sample(logits));
            assertEquals(argmaxByHand(logits), Sampler.greedy().sample(logits));
        }
        float[] tied = {1f, 7f, 3f, 7f, 7f};
        assertEquals(1, Sampler.create(SamplingSettings.greedy()).sample(tied));
        assertEquals(1, Sampler.greedy().sample(tied));
    }

    @Test
    void samplingLeavesTheLogitsUntouched() {
        float[] logits = randomLogits(1000, 3);
        float[] copy = logits.clone();
        Sampler s = Sampler.create(new SamplingSettings(0.9f, 50, 0.9f, 0.05f, 1.3f, 16, 7));
        s.accept(argmaxByHand(logits));
        s.sample(logits);
        assertArrayEquals(copy, logits);
    }

    @Test
    void topKOfOneIsGreedyAtAnyTemperature() {
        for (float t : new float[] {0.1f, 0.7f, 1f, 3f, 50f}) {
            for (long seed = 0; seed < 10; seed++) {
                float[] logits = randomLogits(3000, seed * 31 + 1);
                Sampler s = Sampler.create(settings(t, 1, 1f, 0f, seed));
                assertEquals(argmaxByHand(logits), s.sample(logits), "temperature " + t + " seed " + seed);
            }
        }
    }

    @Test
    void aSeedMakesTheDrawSequenceReproducibleAndResetReplaysIt() {
        float[] logits = randomLogits(200, 11);
        SamplingSettings st = settings(1.5f, 0, 1f, 0f, 42);
        Sampler a = Sampler.create(st);
        Sampler b = Sampler.create(st);
        Sampler other = Sampler.create(st.withSeed(43));
        int[] first = new int[300];
        int[] second = new int[300];
        int[] third = new int[300];
        for (int i = 0; i < first.length; i++) {
            first[i] = a.sample(logits);
            second[i] = b.sample(logits);
            third[i] = other.sample(logits);
        }
        assertArrayEquals(first, second);
        assertNotEquals(java.util.Arrays.toString(first), java.util.Arrays.toString(third));
        a.reset();
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i], a.sample(logits), "after reset, draw " + i);
        }
    }

    @Test
    void drawFrequenciesMatchTheSoftmaxOfTheKeptSet() {
        float[] logits = {0.5f, 2.0f, -1.0f, 1.2f, 1.9f, -3f, 0.9f, 0.1f};
        float temperature = 0.8f;
        int topK = 5; // keeps ids 1, 4, 3, 6, 0
        int[] kept = {1, 4, 3, 6, 0};
        double[] expected = new double[logits.length];
        double z = 0;
        for (int id : kept) {
            z += Math.exp(logits[id] / temperature);
        }
        for (int id : kept) {
            expected[id] = Math.exp(logits[id] / temperature) / z;
        }
        Sampler s = Sampler.create(settings(temperature, topK, 1f, 0f, 2024));
        int draws = 100_000;
        int[] counts = new int[logits.length];
        for (int i = 0; i < draws; i++) {
            counts[s.sample(logits)]++;
        }
        double chiSquare = 0;
        for (int id = 0; id < logits.length; id++) {
            if (expected[id] == 0) {
                assertEquals(0, counts[id], "id " + id + " is outside the top-k set but was drawn");
            } else {
                double e = expected[id] * draws;
                chiSquare += (counts[id] - e) * (counts[id] - e) / e;
            }
        }
        // 4 degrees of freedom: P(chi2 > 25) is about 5e-5.
        assertTrue(chiSquare < 25, "chi-square " + chiSquare + " counts " + java.util.Arrays.toString(counts));
    }

    @Test
    void topKKeepsExactlyTheLargestLogitsOnALargeVocabulary() {
        float[] logits = randomLogits(150_000, 5);
        Candidates c = new Candidates();
        c.fill(logits);
        c.keepTopK(40);
        Integer[] order = new Integer[logits.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> Float.compare(logits[y], logits[x]));
        assertEquals(40, c.size());
        for (int i = 0; i < 40; i++) {
            assertEquals(order[i], c.id(i), "rank " + i);
        }
    }

    @Test
    void topPKeepsTheSmallestPrefixReachingP() {
        // probabilities 1/2, 1/4, 1/8, 1/16, 1/16 placed at shuffled ids
        float[] logits = new float[5];
        logits[3] = (float) Math.log(0.5);
        logits[0] = (float) Math.log(0.25);
        logits[4] = (float) Math.log(0.125);
        logits[1] = (float) Math.log(0.0625);
        logits[2] = (float) Math.log(0.0625);
        assertArrayEquals(new int[] {3}, keptAfterTopP(logits, 0.4f));
        assertArrayEquals(new int[] {3, 0}, keptAfterTopP(logits, 0.7f));
        assertArrayEquals(new int[] {3, 0, 4}, keptAfterTopP(logits, 0.8f));
        assertArrayEquals(new int[] {3, 0, 4, 1, 2}, keptAfterTopP(logits, 0.99f));
    }

    @Test
    void topPGrowsItsSelectionPastTheFirstGuessOnAFlatVocabulary() {
        float[] flat = new float[1000]; // each token 1/1000; ties resolve to the lowest ids
        int[] kept = keptAfterTopP(flat, 0.4995f);
        assertEquals(500, kept.length);
        for (int i = 0; i < kept.length; i++) {
            assertEquals(i, kept[i]);
        }
    }

    @Test
    void topPMatchesABruteForceNucleusOnLargeVocabularies() {
        for (float p : new float[] {0.3f, 0.9f, 0.99f}) {
            float[] logits = randomLogits(20_000, 77);
            for (int i = 0; i < logits.length; i++) {
                logits[i] *= 0.4f; // flat enough that the nucleus holds thousands of tokens
            }
            Integer[] order = new Integer[logits.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (x, y) -> Float.compare(logits[y], logits[x]));
            double z = 0;
            for (float l : logits) {
                z += Math.exp(l - logits[order[0]]);
            }
            double cumulative = 0;
            int expected = 0;
            while (cumulative < p) {
                cumulative += Math.exp(logits[order[expected++]] - logits[order[0]]) / z;
            }
            int[] kept = keptAfterTopP(logits, p);
            assertEquals(expected, kept.length, "p " + p);
            for (int i = 0; i < kept.length; i++) {
                assertEquals(order[i], kept[i], "p " + p + ", rank " + i);
            }
        }
    }

    @Test
    void minPKeepsTokensAtLeastMinPTimesAsLikelyAsTheTop() {
        float[] logits = {-2f, 0f, -3f, -1f}; // ratios to the top: e^-2=.135, 1, e^-3=.050, e^-1=.368
        assertArrayEquals(new int[] {1}, keptAfterMinP(logits, 0.4f));
        assertArrayEquals(new int[] {0, 1, 3}, keptAfterMinP(logits, 0.1f));
        assertArrayEquals(new int[] {0, 1, 2, 3}, keptAfterMinP(logits, 0.04f));
        // the sampler only ever draws from the kept set
        Sampler s = Sampler.create(settings(1f, 0, 1f, 0.3f, 9));
        for (int i = 0; i < 2000; i++) {
            int id = s.sample(logits);
            assertTrue(id == 1 || id == 3, "drew " + id);
        }
    }

    @Test
    void repetitionPenaltyChangesExactlyThePenalizedIds() {
        float[] logits = {4f, -1f, 2f, 6f, 0.5f, -3f};
        RepetitionPenalty penalty = new RepetitionPenalty(2f, 3);
        for (int t : new int[] {0, 1, 3, 1}) { // window of 3 forgets the first 0
            penalty.accept(t);
        }
        Candidates c = new Candidates();
        c.fill(logits);
        penalty.apply(c);
        float[] expected = {4f, -2f, 2f, 3f, 0.5f, -3f};
        for (int id = 0; id < logits.length; id++) {
            assertEquals(expected[id], c.logit(id), "id " + id);
        }
        // through the chain: greedy after the penalty moves from id 3 (6 -> 3) to id 0 (4)
        Sampler s = Sampler.create(new SamplingSettings(0f, 0, 1f, 0f, 2f, 3, 0));
        assertEquals(3, s.sample(logits));
        s.accept(3);
        assertEquals(0, s.sample(logits));
        s.reset();
        assertEquals(3, s.sample(logits));
    }

    @Test
    void invalidSettingsAreRejectedWithClearMessages() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings(1f, 0, 0f, 0f, 0));
        assertTrue(e.getMessage().contains("top-p must be in (0, 1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> settings(1f, 0, 1.5f, 0f, 0));
        assertThrows(IllegalArgumentException.class, () -> settings(1f, -1, 1f, 0f, 0));
        assertThrows(IllegalArgumentException.class, () -> settings(1f, 0, 1f, 1f, 0));
        assertThrows(IllegalArgumentException.class, () -> settings(Float.NaN, 0, 1f, 0f, 0));
        assertThrows(IllegalArgumentException.class, () -> new SamplingSettings(1f, 0, 1f, 0f, 0f, 64, 0));
        assertThrows(IllegalArgumentException.class, () -> new SamplingSettings(1f, 0, 1f, 0f, 1.1f, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> Sampler.greedy().sample(new float[0]));
    }

    private static int[] keptAfterTopP(float[] logits, float p) {
        Candidates c = new Candidates();
        c.fill(logits);
        c.keepTopP(p);
        return ids(c);
    }

    private static int[] keptAfterMinP(float[] logits, float minP) {
        Candidates c = new Candidates();
        c.fill(logits);
        c.keepMinP(minP);
        int[] kept = ids(c);
        java.util.Arrays.sort(kept);
        return kept;
    }

    private static int[] ids(Candidates c) {
        int[] out = new int[c.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = c.id(i);
        }
        return out;
    }
}
