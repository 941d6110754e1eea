package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The F16 and int8 KV caches against the F32 cache, directly and inside a real model over 200 positions. */
class KvCacheFormatsTest {

    private static final int LAYERS = 2;
    private static final int HEAD = 64;
    private static final int KV_DIM = 2 * HEAD;
    private static final int POSITIONS = 200;

    /** Stores random keys and values in both caches and compares every head's dot and value sum. */
    @ParameterizedTest
    @EnumSource(value = KvFormat.class, names = {"F16", "INT8"})
    void readsMatchTheF32CacheWithinTheFormatsPrecision(KvFormat format) {
        try (Backend math = Backend.create(BackendKind.VECTOR, 1)) {
            KvCache ref = new F32KvCache(LAYERS, POSITIONS, KV_DIM, math);
            KvCache cache = format == KvFormat.F16 ? new F16KvCache(LAYERS, POSITIONS, KV_DIM)
                    : new Int8KvCache(LAYERS, POSITIONS, KV_DIM, HEAD, true);
            KvCache scalar = new Int8KvCache(LAYERS, POSITIONS, KV_DIM, HEAD, false);
            Random rnd = new Random(3);
            float[] k = new float[KV_DIM];
            float[] v = new float[KV_DIM];
            float[] q = new float[KV_DIM];
            // Relative step of the format: a value is within amax * rel of the original.
            float rel = format == KvFormat.F16 ? 1f / 2048 : 0.5f / 127;
            for (int p = 0; p < POSITIONS; p++) {
                for (int l = 0; l < LAYERS; l++) {
                    for (int i = 0; i < KV_DIM; i++) {
                        k[i] = (float) (rnd.nextGaussian() * (1 + p % 7));
                        v[i] = (float) rnd.nextGaussian();
                    }
                    ref.store(l, p, k, 0, v, 0);
                    cache.store(l, p, k, 0, v, 0);
                    scalar.store(l, p, k, 0, v, 0);
                }
            }
            for (int i = 0; i < KV_DIM; i++) {
                q[i] = (float) rnd.nextGaussian();
            }
            double worst = 0;
            for (int l = 0; l < LAYERS; l++) {
                for (int p = 0; p < POSITIONS; p++) {
                    for (int h = 0; h < KV_DIM / HEAD; h++) {
                        float exact = ref.keyDot(l, p, h * HEAD, q, h * HEAD, HEAD);
                        float got = cache.keyDot(l, p, h * HEAD, q, h * HEAD, HEAD);
                        float kmax = 7 * 4.5f; // |k| < 4.5 sigma * scale
                        float qNorm1 = 0;
                        for (int i = 0; i < HEAD; i++) {
                            qNorm1 += Math.abs(q[h * HEAD + i]);
                        }
                        float bound = kmax * rel * qNorm1;
                        assertTrue(Math.abs(got - exact) <= bound, format + " key dot at " + l + "/" + p + "/" + h
                                + ": " + got + " vs " + exact);
                        worst = Math.max(worst, Math.abs(got - exact) / bound);
                        if (format == KvFormat.INT8) {
                            assertEquals(scalar.keyDot(l, p, h * HEAD, q, h * HEAD, HEAD), got, 1e-3f * (1 + Math.abs(got)),
                                    "vector and scalar int8 dots");
                        }
                        float[] a = new float[HEAD];
                        float[] b = new float[HEAD];
                        ref.addValue(l, p, h * HEAD, 0.7f, a, 0, HEAD);
                        cache.addValue(l, p, h * HEAD, 0.7f, b, 0, HEAD);
                        for (int i = 0; i < HEAD; i++) {
                            assertEquals(a[i], b[i], 0.7f * 4.5f * rel + 1e-6f, format + " value " + i);
                        }
                    }
                }
            }
            assertTrue(worst > 0, "the " + format + " cache should not be exact");
        }
    }

    @Test
    void anInt8CacheRejectsAKvDimensionThatIsNotWholeHeads() {
        assertThrows(IllegalArgumentException.class, () -> new Int8KvCache(1, 4, 100, 64, true));
    }

    /** m1 fed 200 tokens with each cache: every step's logits stay near the F32 cache's. */
    @ParameterizedTest
    @EnumSource(value = KvFormat.class, names = {"F16", "INT8"})
    void aModelWithTheCacheStaysNearTheF32CacheOver200Positions(KvFormat format) throws Exception {
        Path p = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        ModelOptions f32 = new ModelOptions(BackendKind.VECTOR, 2);
        float maxDev = 0;
        int sameTop = 0;
        try (LlamaModel a = LlamaModel.load(p, f32); LlamaModel b = LlamaModel.load(p, f32.withKv(format));
             InferenceSession sa = a.newSession(POSITIONS); InferenceSession sb = b.newSession(POSITIONS)) {
            assertEquals(KvCache.bytesFor(a.config(), POSITIONS, format), sb.cache().bytes());
            int[] one = {1};
            for (int pos = 0; pos < POSITIONS; pos++) {
                float[] la = sa.ingest(one);
                float[] lb = sb.ingest(one);
                for (int i = 0; i < la.length; i++) {
                    maxDev = Math.max(maxDev, Math.abs(la[i] - lb[i]));
                }
                int top = ParityTest.argmax(la);
                sameTop += top == ParityTest.argmax(lb) ? 1 : 0;
                // Teacher-forced varied input so that the attention spreads over many positions.
                one[0] = 3 + (int) ((pos * 2654435761L) % 31000);
            }
        }
        System.out.printf("KV %s vs F32 over %d positions: max |logit dev| %.4f, same top-1 %d%n", format, POSITIONS,
                maxDev, sameTop);
        float tol = format == KvFormat.F16 ? 0.3f : 0.5f; // logits here reach 27; the parity tolerance is 0.3
        assertTrue(maxDev < tol, format + " cache moved a logit by " + maxDev);
        assertTrue(sameTop >= POSITIONS - 2, "top-1 agreed at only " + sameTop + " positions");
    }
}
