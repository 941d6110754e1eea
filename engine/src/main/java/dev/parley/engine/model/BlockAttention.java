package dev.parley.engine.model;

import dev.parley.engine.backend.VectorExp;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Blocked causal attention with an online softmax (FlashAttention's order of work) for a group of query rows that
 * read the same KV head of the same cache: the query heads of one GQA group for one or more consecutive tokens of
 * a sequence. The cache is read a block of {@link #BLOCK} positions at a time through {@link KvCache#read} (as
 * floats, keys transposed: one row per component, so that 16 positions' scores are 16-lane FMAs with no lane
 * reductions); every block is used by every query of the group while it is in L1. Each query keeps a running
 * maximum, a running sum and an unnormalised output, rescaled when the maximum grows; the result is the
 * reference's (one pass for the maximum, one for the exps, one for the values) up to float rounding.
 *
 * <p>One instance per thread: it holds that thread's scratch.
 */
final class BlockAttention {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;

    /**
     * Positions per block: four vectors of scores (64 at 512 bits; the keys and values of a 64-wide head are then
     * 32 KiB of floats, in L1).
     */
    static final int BLOCK = 4 * F.length();

    private final int headSize;
    private final int maxQueries;
    private final float[] keysT;   // (headSize, BLOCK)
    private final float[] values;  // (BLOCK, headSize)
    private final float[] scores;  // (BLOCK)
    private final float[] laneSums = new float[F.length()];
    private final float[] acc;     // (maxQueries, headSize)
    private final float[] max;     // (maxQueries)
    private final double[] sum;    // (maxQueries)
    /** The caller's per-call arrays for {@link #attend}: query offsets, lengths and output offsets. */
    final int[] qOffsets;
    final int[] lengths;
    final int[] outOffsets;

    BlockAttention(int headSize, int maxQueries) {
        this.headSize = headSize;
        this.maxQueries = maxQueries;
        keysT = new float[headSize * BLOCK];
        values = new float[BLOCK * headSize];
        scores = new float[BLOCK];
        acc = new float[maxQueries * headSize];
        max = new float[maxQueries];
        sum = new double[maxQueries];
        qOffsets = new int[maxQueries];
        lengths = new int[maxQueries];
        outOffsets = new int[maxQueries];
    }

    /** Bytes of the arrays of one instance (for the memory report). */
    static long scratchBytes(int headSize, int maxQueries) {
        return 4L * (2L * headSize * BLOCK + BLOCK + F.length() + (long) maxQueries * headSize + maxQueries)
                + 8L * maxQueries + 3L * 4 * maxQueries;
    }

    /** Query rows one call may hold. */
    int maxQueries() {
        return maxQueries;
    }

    /**
     * Attention of {@code nq} query rows over {@code cache}'s head slice {@code [kvOffset, kvOffset + headSize)}:
     * query i is {@code q[qOffsets[i] ..]}, attends to positions {@code [0, lengths[i])} and writes its output to
     * {@code out[outOffsets[i] ..]}. {@code scale} multiplies every score.
     */
    void attend(KvCache cache, int layer, int kvOffset, float[] q, int[] qOffsets, int[] lengths, int nq,
                float scale, float[] out, int[] outOffsets) {
        if (nq > maxQueries) {
            throw new IllegalArgumentException("expected at most " + maxQueries + " query rows but found " + nq);
        }
        int hs = headSize;
        int longest = 0;
        for (int i = 0; i < nq; i++) {
            longest = Math.max(longest, lengths[i]);
            max[i] = Float.NEGATIVE_INFINITY;
            sum[i] = 0;
            java.util.Arrays.fill(acc, i * hs, (i + 1) * hs, 0f);
        }
        for (int p0 = 0; p0 < longest; p0 += BLOCK) {
            int n = Math.min(BLOCK, longest - p0);
            cache.read(layer, p0, n, kvOffset, hs, keysT, BLOCK, values, 0);
            for (int i = 0; i < nq; i++) {
                int valid = Math.min(n, lengths[i] - p0);
                if (valid > 0) {
                    block(i, q, qOffsets[i], valid, scale);
                }
            }
        }
        for (int i = 0; i < nq; i++) {
            float inv = (float) (1.0 / sum[i]);
            int a = i * hs;
            int o = outOffsets[i];
            int d = 0;
            for (; d + F.length() <= hs; d += F.length()) {
                FloatVector.fromArray(F, acc, a + d).mul(inv).intoArray(out, o + d);
            }
            for (; d < hs; d++) {
                out[o + d] = acc[a + d] * inv;
            }
        }
    }

    /**
     * Query i against the first {@code valid} positions of the block in the scratch arrays. Split into small
     * methods: one large method of Vector API calls can exceed C2's inlining budget, and a vector operation that
     * is not inlined is not intrinsified (the blocked kernel then measured 10-40x slower in some JVM runs).
     */
    private void block(int i, float[] q, int qo, int valid, float scale) {
        int hs = headSize;
        int lanes = F.length();
        float best = scores(q, qo, valid, scale);
        float m = max[i];
        int a = i * hs;
        if (best > m) {
            if (m != Float.NEGATIVE_INFINITY) {
                float corr = (float) Math.exp(m - best);
                sum[i] *= corr;
                int d = 0;
                for (; d + lanes <= hs; d += lanes) {
                    FloatVector.fromArray(F, acc, a + d).mul(corr).intoArray(acc, a + d);
                }
                for (; d < hs; d++) {
                    acc[a + d] *= corr;
                }
            }
            m = best;
            max[i] = m;
        }
        sum[i] += exps(valid, m);
        if (hs == 4 * lanes) {
            weightedValues4(a, valid);
        } else {
            weightedValues(a, valid);
        }
    }

    /** The block's scores (times {@code scale}) into {@link #scores}; returns the largest of the valid ones. */
    private float scores(float[] q, int qo, int valid, float scale) {
        int hs = headSize;
        int lanes = F.length();
        // Scores of the whole block, four vectors of positions at once: sum over d of q[d] * keysT[d][j]. Two
        // accumulators per vector (even and odd d) make eight independent FMA chains, enough to hide the latency.
        FloatVector s0 = FloatVector.zero(F);
        FloatVector s1 = s0, s2 = s0, s3 = s0, u0 = s0, u1 = s0, u2 = s0, u3 = s0;
        int d = 0;
        for (; d + 1 < hs; d += 2) {
            FloatVector qd = FloatVector.broadcast(F, q[qo + d]);
            int kd = d * BLOCK;
            s0 = FloatVector.fromArray(F, keysT, kd).fma(qd, s0);
            s1 = FloatVector.fromArray(F, keysT, kd + lanes).fma(qd, s1);
            s2 = FloatVector.fromArray(F, keysT, kd + 2 * lanes).fma(qd, s2);
            s3 = FloatVector.fromArray(F, keysT, kd + 3 * lanes).fma(qd, s3);
            FloatVector qe = FloatVector.broadcast(F, q[qo + d + 1]);
            int ke = kd + BLOCK;
            u0 = FloatVector.fromArray(F, keysT, ke).fma(qe, u0);
            u1 = FloatVector.fromArray(F, keysT, ke + lanes).fma(qe, u1);
            u2 = FloatVector.fromArray(F, keysT, ke + 2 * lanes).fma(qe, u2);
            u3 = FloatVector.fromArray(F, keysT, ke + 3 * lanes).fma(qe, u3);
        }
        if (d < hs) {
            FloatVector qd = FloatVector.broadcast(F, q[qo + d]);
            int kd = d * BLOCK;
            s0 = FloatVector.fromArray(F, keysT, kd).fma(qd, s0);
            s1 = FloatVector.fromArray(F, keysT, kd + lanes).fma(qd, s1);
            s2 = FloatVector.fromArray(F, keysT, kd + 2 * lanes).fma(qd, s2);
            s3 = FloatVector.fromArray(F, keysT, kd + 3 * lanes).fma(qd, s3);
        }
        s0 = s0.add(u0).mul(scale);
        s1 = s1.add(u1).mul(scale);
        s2 = s2.add(u2).mul(scale);
        s3 = s3.add(u3).mul(scale);
        s0.intoArray(scores, 0);
        s1.intoArray(scores, lanes);
        s2.intoArray(scores, 2 * lanes);
        s3.intoArray(scores, 3 * lanes);
        float best = s0.reduceLanes(VectorOperators.MAX, F.indexInRange(0, valid));
        if (valid > lanes) {
            best = Math.max(best, s1.reduceLanes(VectorOperators.MAX, F.indexInRange(lanes, valid)));
        }
        if (valid > 2 * lanes) {
            best = Math.max(best, s2.reduceLanes(VectorOperators.MAX, F.indexInRange(2 * lanes, valid)));
        }
        if (valid > 3 * lanes) {
            best = Math.max(best, s3.reduceLanes(VectorOperators.MAX, F.indexInRange(3 * lanes, valid)));
        }
        return best;
    }

    /** {@code exp(score - m)} in place for the valid positions (0 beyond); returns their sum. */
    private float exps(int valid, float m) {
        int lanes = F.length();
        FloatVector sum = FloatVector.zero(F);
        for (int j = 0; j < valid; j += lanes) {
            VectorMask<Float> in = F.indexInRange(j, valid);
            FloatVector e = VectorExp.exp(FloatVector.fromArray(F, scores, j).sub(m));
            e = FloatVector.zero(F).blend(e, in);
            e.intoArray(scores, j);
            sum = sum.add(e);
        }
        // The lanes added in a fixed order: reduceLanes(ADD) leaves it open, and the JIT's is not the interpreter's.
        sum.intoArray(laneSums, 0);
        float total = 0f;
        for (int i = 0; i < lanes; i++) {
            total += laneSums[i];
        }
        return total;
    }

    /**
     * {@code acc[a ..] += sum over j of scores[j] * values[j]} for a head of four vectors (64 at 512 bits): the
     * whole output row in registers, two sets of accumulators (even and odd positions), eight FMA chains.
     */
    private void weightedValues4(int a, int valid) {
        int hs = headSize;
        int lanes = F.length();
        {
            // The usual head (64 at 512 bits): the whole output row in registers, two sets of accumulators
            // (even and odd positions) so that eight FMA chains hide the latency.
            FloatVector v0 = FloatVector.fromArray(F, acc, a);
            FloatVector v1 = FloatVector.fromArray(F, acc, a + lanes);
            FloatVector v2 = FloatVector.fromArray(F, acc, a + 2 * lanes);
            FloatVector v3 = FloatVector.fromArray(F, acc, a + 3 * lanes);
            FloatVector w0 = FloatVector.zero(F), w1 = w0, w2 = w0, w3 = w0;
            int j = 0;
            for (; j + 1 < valid; j += 2) {
                FloatVector p = FloatVector.broadcast(F, scores[j]);
                int o = j * hs;
                v0 = FloatVector.fromArray(F, values, o).fma(p, v0);
                v1 = FloatVector.fromArray(F, values, o + lanes).fma(p, v1);
                v2 = FloatVector.fromArray(F, values, o + 2 * lanes).fma(p, v2);
                v3 = FloatVector.fromArray(F, values, o + 3 * lanes).fma(p, v3);
                FloatVector r = FloatVector.broadcast(F, scores[j + 1]);
                o += hs;
                w0 = FloatVector.fromArray(F, values, o).fma(r, w0);
                w1 = FloatVector.fromArray(F, values, o + lanes).fma(r, w1);
                w2 = FloatVector.fromArray(F, values, o + 2 * lanes).fma(r, w2);
                w3 = FloatVector.fromArray(F, values, o + 3 * lanes).fma(r, w3);
            }
            if (j < valid) {
                FloatVector p = FloatVector.broadcast(F, scores[j]);
                int o = j * hs;
                v0 = FloatVector.fromArray(F, values, o).fma(p, v0);
                v1 = FloatVector.fromArray(F, values, o + lanes).fma(p, v1);
                v2 = FloatVector.fromArray(F, values, o + 2 * lanes).fma(p, v2);
                v3 = FloatVector.fromArray(F, values, o + 3 * lanes).fma(p, v3);
            }
            v0.add(w0).intoArray(acc, a);
            v1.add(w1).intoArray(acc, a + lanes);
            v2.add(w2).intoArray(acc, a + 2 * lanes);
            v3.add(w3).intoArray(acc, a + 3 * lanes);
        }
    }

    /** {@code acc[a ..] += sum over j of scores[j] * values[j]} for any head size. */
    private void weightedValues(int a, int valid) {
        int hs = headSize;
        int lanes = F.length();
        int d = 0;
        for (; d + lanes <= hs; d += lanes) {
            FloatVector v = FloatVector.fromArray(F, acc, a + d);
            FloatVector w = FloatVector.zero(F);
            int j = 0;
            for (; j + 1 < valid; j += 2) {
                v = FloatVector.fromArray(F, values, j * hs + d).fma(FloatVector.broadcast(F, scores[j]), v);
                w = FloatVector.fromArray(F, values, (j + 1) * hs + d).fma(FloatVector.broadcast(F, scores[j + 1]), w);
            }
            if (j < valid) {
                v = FloatVector.fromArray(F, values, j * hs + d).fma(FloatVector.broadcast(F, scores[j]), v);
            }
            v.add(w).intoArray(acc, a + d);
        }
        for (; d < hs; d++) {
            float v = acc[a + d];
            for (int j = 0; j < valid; j++) {
                v += scores[j] * values[j * hs + d];
            }
            acc[a + d] = v;
        }
    }
}
