package dev.parley.engine.model;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One layer's attention, SmolLM2-135M shape (9 query heads, 3 KV heads of 64), one thread: {@code prompt} is a
 * chunk of 64 tokens at positions 64..127 of one sequence, {@code decode8} one token each of 8 sequences at
 * position 160 (a batched step). {@code blocked} is {@link BlockAttention}; {@code reference} the per-(token, head)
 * three-pass loop through {@link KvCache#keyDot} and {@link KvCache#addValue} that it replaced.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class AttentionBench {

    private static final int HEADS = 9;
    private static final int KV_HEADS = 3;
    private static final int HS = 64;
    private static final int GROUP = HEADS / KV_HEADS;

    @Param({"F32", "F16", "INT8"})
    public KvFormat format;

    @Param({"prompt", "decode8"})
    public String step;

    private Backend math;
    private KvCache[] caches;
    private int[] rowSeq;
    private int[] rowPos;
    private float[] q;
    private float[] out;
    private float[] scores;
    private BlockAttention ba;

    @Setup(Level.Trial)
    public void setUp() {
        math = Backend.create(BackendKind.VECTOR, 1);
        boolean prompt = step.equals("prompt");
        int seqs = prompt ? 1 : 8;
        int rows = prompt ? 64 : 8;
        int capacity = 256;
        Random rnd = new Random(1);
        caches = new KvCache[seqs];
        float[] k = new float[KV_HEADS * HS];
        float[] v = new float[KV_HEADS * HS];
        for (int s = 0; s < seqs; s++) {
            caches[s] = switch (format) {
                case F32 -> new F32KvCache(1, capacity, KV_HEADS * HS, math);
                case F16 -> new F16KvCache(1, capacity, KV_HEADS * HS);
                case INT8 -> new Int8KvCache(1, capacity, KV_HEADS * HS, HS, true);
            };
            for (int p = 0; p < capacity; p++) {
                for (int i = 0; i < k.length; i++) {
                    k[i] = (float) rnd.nextGaussian();
                    v[i] = (float) rnd.nextGaussian();
                }
                caches[s].store(0, p, k, 0, v, 0);
            }
        }
        rowSeq = new int[rows];
        rowPos = new int[rows];
        for (int r = 0; r < rows; r++) {
            rowSeq[r] = prompt ? 0 : r;
            rowPos[r] = prompt ? 64 + r : 160;
        }
        q = new float[rows * HEADS * HS];
        for (int i = 0; i < q.length; i++) {
            q[i] = (float) rnd.nextGaussian();
        }
        out = new float[q.length];
        scores = new float[capacity];
        ba = new BlockAttention(HS, Transformer.ATTENTION_TOKENS * GROUP);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        math.close();
    }

    @Benchmark
    public float[] blocked() {
        float scale = (float) (1.0 / Math.sqrt(HS));
        int rows = rowSeq.length;
        for (int t = 0; t < rows; ) {
            int end = t + 1;
            while (end < rows && end - t < Transformer.ATTENTION_TOKENS && rowSeq[end] == rowSeq[t]) {
                end++;
            }
            for (int h = 0; h < KV_HEADS; h++) {
                int nq = 0;
                for (int r = t; r < end; r++) {
                    for (int g = 0; g < GROUP; g++) {
                        int o = r * HEADS * HS + (h * GROUP + g) * HS;
                        ba.qOffsets[nq] = o;
                        ba.outOffsets[nq] = o;
                        ba.lengths[nq] = rowPos[r] + 1;
                        nq++;
                    }
                }
                ba.attend(caches[rowSeq[t]], 0, h * HS, q, ba.qOffsets, ba.lengths, nq, scale, out, ba.outOffsets);
            }
            t = end;
        }
        return out;
    }

    @Benchmark
    public float[] reference() {
        float scale = (float) (1.0 / Math.sqrt(HS));
        java.util.Arrays.fill(out, 0f);
        for (int r = 0; r < rowSeq.length; r++) {
            KvCache cache = caches[rowSeq[r]];
            int len = rowPos[r] + 1;
            for (int h = 0; h < HEADS; h++) {
                int qo = r * HEADS * HS + h * HS;
                int ko = (h / GROUP) * HS;
                float max = Float.NEGATIVE_INFINITY;
                for (int p = 0; p < len; p++) {
                    float sc = cache.keyDot(0, p, ko, q, qo, HS) * scale;
                    scores[p] = sc;
                    max = Math.max(max, sc);
                }
                double sum = 0;
                for (int p = 0; p < len; p++) {
                    float e = (float) Math.exp(scores[p] - max);
                    scores[p] = e;
                    sum += e;
                }
                float inv = (float) (1.0 / sum);
                for (int p = 0; p < len; p++) {
                    cache.addValue(0, p, ko, scores[p] * inv, out, qo, HS);
                }
            }
        }
        return out;
    }
}
