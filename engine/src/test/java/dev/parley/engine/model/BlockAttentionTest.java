package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.Backend;
import dev.parley.engine.backend.BackendKind;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The blocked online-softmax attention against the reference algorithm (scores, then exps with the global maximum
 * and a double sum, then the weighted values, through {@link KvCache#keyDot} and {@link KvCache#addValue}) on the
 * same cache, for every storage format, contiguous and paged: equal up to float rounding.
 */
class BlockAttentionTest {

    private static final int LAYERS = 2;
    private static final int KV_HEADS = 2;
    private static final int GROUP = 3;

    @ParameterizedTest(name = "{0} paged={1} headSize={2}")
    @CsvSource({"F32,false,64", "F16,false,64", "INT8,false,64", "F32,true,64", "F16,true,64", "INT8,true,64",
                "F32,false,40", "INT8,true,24"})
    void equalsTheReferenceWithinFloatRounding(KvFormat format, boolean paged, int headSize) {
        int positions = 160; // two full blocks of 64 and a partial one
        int kvDim = KV_HEADS * headSize;
        int qDim = KV_HEADS * GROUP * headSize;
        Random rnd = new Random(format.ordinal() * 7 + headSize + (paged ? 100 : 0));
        try (Backend math = Backend.create(BackendKind.VECTOR, 1)) {
            KvCache cache;
            if (paged) {
                int blockSize = 16;
                KvCache pool = create(format, positions + 3 * blockSize, kvDim, headSize, math);
                int[] table = new int[positions / blockSize];
                for (int b = 0; b < table.length; b++) {
                    table[b] = (b * 7 + 3) % (pool.capacity() / blockSize); // scattered physical blocks
                }
                cache = new PagedKvCache(pool, blockSize).reset(table, table.length);
            } else {
                cache = create(format, positions, kvDim, headSize, math);
            }
            float[] k = new float[kvDim];
            float[] v = new float[kvDim];
            for (int p = 0; p < positions; p++) {
                for (int l = 0; l < LAYERS; l++) {
                    for (int i = 0; i < kvDim; i++) {
                        k[i] = (float) (rnd.nextGaussian() * (1 + p % 5));
                        v[i] = (float) rnd.nextGaussian();
                    }
                    cache.store(l, p, k, 0, v, 0);
                }
            }
            // 9 tokens x GROUP heads of KV head 1, at positions crossing block edges, some short.
            int[] tokenPositions = {0, 1, 62, 63, 64, 65, 100, 127, 159};
            int nq = tokenPositions.length * GROUP;
            float[] q = new float[tokenPositions.length * qDim];
            for (int i = 0; i < q.length; i++) {
                q[i] = (float) (rnd.nextGaussian() * 2);
            }
            BlockAttention ba = new BlockAttention(headSize, nq);
            int kvh = 1;
            int n = 0;
            for (int t = 0; t < tokenPositions.length; t++) {
                for (int g = 0; g < GROUP; g++) {
                    int o = t * qDim + (kvh * GROUP + g) * headSize;
                    ba.qOffsets[n] = o;
                    ba.outOffsets[n] = o;
                    ba.lengths[n] = tokenPositions[t] + 1;
                    n++;
                }
            }
            float scale = (float) (1.0 / Math.sqrt(headSize));
            for (int layer = 0; layer < LAYERS; layer++) {
                float[] out = new float[q.length];
                ba.attend(cache, layer, kvh * headSize, q, ba.qOffsets, ba.lengths, nq, scale, out, ba.outOffsets);
                for (int i = 0; i < nq; i++) {
                    float[] expected = new float[headSize];
                    reference(cache, layer, kvh * headSize, headSize, q, ba.qOffsets[i], ba.lengths[i], scale, expected);
                    for (int d = 0; d < headSize; d++) {
                        float e = expected[d];
                        float a = out[ba.outOffsets[i] + d];
                        // The weights sum to 1 and |v| is below about 5: rounding stays far below 1e-5.
                        assertEquals(e, a, 2e-5f, format + " layer " + layer + " query " + i + " (length "
                                + ba.lengths[i] + ") component " + d);
                    }
                }
            }
            assertTrue(ba.maxQueries() == nq);
            assertThrows(IllegalArgumentException.class, () -> ba.attend(cache, 0, 0, q, ba.qOffsets, ba.lengths,
                    nq + 1, scale, new float[q.length], ba.outOffsets));
        }
    }

    private static KvCache create(KvFormat format, int capacity, int kvDim, int headSize, Backend math) {
        return switch (format) {
            case F32 -> new F32KvCache(LAYERS, capacity, kvDim, math);
            case F16 -> new F16KvCache(LAYERS, capacity, kvDim);
            case INT8 -> new Int8KvCache(LAYERS, capacity, kvDim, headSize, true);
        };
    }

    /** The reference order of work (as Transformer's scalar path), in double where it keeps the sum. */
    private static void reference(KvCache cache, int layer, int ko, int hs, float[] q, int qo, int len, float scale,
                                  float[] out) {
        float[] scores = new float[len];
        float max = Float.NEGATIVE_INFINITY;
        for (int p = 0; p < len; p++) {
            scores[p] = cache.keyDot(layer, p, ko, q, qo, hs) * scale;
            max = Math.max(max, scores[p]);
        }
        double sum = 0;
        for (int p = 0; p < len; p++) {
            scores[p] = (float) Math.exp(scores[p] - max);
            sum += scores[p];
        }
        float inv = (float) (1.0 / sum);
        for (int p = 0; p < len; p++) {
            cache.addValue(layer, p, ko, scores[p] * inv, out, 0, hs);
        }
    }
}
