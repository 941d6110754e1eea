package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The K-quant reference quantizers: decoded values stay within a bound of the float source for each type (relative
 * to the block's spread), special blocks (zeros, constants, one outlier) behave, and {@link QuantMix} picks
 * llama.cpp's type for each tensor.
 */
class KQuantEncoderTest {

    /**
     * Bounds on the error, as a fraction of each 256-value block's RMS: the RMS error (measured on Gaussian data:
     * Q4_K 0.078, Q5_K 0.042, Q6_K 0.019; max 0.21, 0.13, 0.06) and the largest single error, with some margin.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"Q4_K, 0.10, 0.30", "Q5_K, 0.055, 0.18", "Q6_K, 0.026, 0.08"})
    void decodedValuesStayNearTheSource(GgmlType type, double rmsBound, double maxBound) {
        Random rnd = new Random(11);
        int blocks = 64;
        float[] x = new float[256 * blocks];
        for (int i = 0; i < x.length; i++) {
            // Blocks from 1e-2 to 1e2. Far smaller blocks lose precision in the format itself: their FP16 super-block
            // scale (Q6_K: about max / 4096) becomes subnormal, as in llama.cpp.
            double scale = Math.pow(10, (i / 256) % 5 - 2);
            x[i] = (float) (rnd.nextGaussian() * scale + ((i / 256) % 3 == 1 ? scale : 0)); // some with an offset
        }
        float[] y = TensorEncoder.decode(type, TensorEncoder.encode(type, x));
        double worstRms = 0;
        double worstMax = 0;
        for (int b = 0; b < blocks; b++) {
            double ss = 0;
            double se = 0;
            double max = 0;
            for (int i = 256 * b; i < 256 * (b + 1); i++) {
                ss += (double) x[i] * x[i];
                double e = Math.abs(x[i] - y[i]);
                se += e * e;
                max = Math.max(max, e);
            }
            double rms = Math.sqrt(ss / 256);
            worstRms = Math.max(worstRms, Math.sqrt(se / 256) / rms);
            worstMax = Math.max(worstMax, max / rms);
        }
        System.out.printf("%s: worst block RMS error %.4f, max error %.4f (of the block RMS)%n", type, worstRms, worstMax);
        assertTrue(worstRms <= rmsBound, type + ": RMS error " + worstRms + " of the block RMS, expected at most " + rmsBound);
        assertTrue(worstMax <= maxBound, type + ": max error " + worstMax + " of the block RMS, expected at most " + maxBound);
    }

    @ParameterizedTest
    @CsvSource({"Q4_K", "Q5_K", "Q6_K"})
    void zeroConstantAndOutlierBlocks(GgmlType type) {
        float[] x = new float[256 * 3];
        for (int i = 256; i < 512; i++) {
            x[i] = 0.75f;          // a constant block
        }
        for (int i = 512; i < 768; i++) {
            x[i] = (i % 7 - 3) * 0.01f;
        }
        x[600] = 5f;               // one outlier
        float[] y = TensorEncoder.decode(type, TensorEncoder.encode(type, x));
        for (int i = 0; i < 256; i++) {
            assertEquals(0f, Math.abs(y[i]), "zeros stay zero");
        }
        for (int i = 256; i < 512; i++) {
            assertEquals(0.75f, y[i], 0.75f * 0.02f, "constant " + i);
        }
        assertEquals(5f, y[600], 5f * 0.05f, "the outlier keeps its size");
    }

    @Test
    void encodingIsDeterministicAndRejectsPartialBlocks() {
        float[] x = new float[512];
        Random rnd = new Random(3);
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rnd.nextGaussian();
        }
        for (GgmlType t : new GgmlType[] {GgmlType.Q4_K, GgmlType.Q5_K, GgmlType.Q6_K}) {
            assertArrayEquals(TensorEncoder.encode(t, x), TensorEncoder.encode(t, x.clone()));
            assertEquals(2 * t.typeSize(), TensorEncoder.encode(t, x).length);
            assertTrue(TensorEncoder.canEncode(t));
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> TensorEncoder.encode(t, new float[100]));
            assertTrue(e.getMessage().contains("256"), e.getMessage());
        }
    }

    @Test
    void mixesFollowLlamaCppsChoices() {
        // Q4_K_M on 8 layers: more bits for layers 0 (< n/8), 7 (>= 7n/8), 3 and 6 ((i - 1) % 3 == 2).
        for (int l = 0; l < 8; l++) {
            GgmlType expected = l == 0 || l == 3 || l == 6 || l == 7 ? GgmlType.Q6_K : GgmlType.Q4_K;
            assertEquals(expected, QuantMix.Q4_K_M.typeFor("blk." + l + ".attn_v.weight", 2, 256, 8, true), "attn_v " + l);
            assertEquals(expected, QuantMix.Q4_K_M.typeFor("blk." + l + ".ffn_down.weight", 2, 512, 8, true), "ffn_down " + l);
            assertEquals(GgmlType.Q4_K, QuantMix.Q4_K_M.typeFor("blk." + l + ".attn_q.weight", 2, 256, 8, true));
        }
        // 4 layers (m6): layers 2 and 3.
        assertEquals(GgmlType.Q4_K, QuantMix.Q5_K_M.typeFor("blk.1.attn_v.weight", 2, 256, 4, true) == GgmlType.Q6_K
                ? GgmlType.Q6_K : GgmlType.Q4_K);
        assertEquals(GgmlType.Q6_K, QuantMix.Q5_K_M.typeFor("blk.2.attn_v.weight", 2, 256, 4, true));
        assertEquals(GgmlType.Q6_K, QuantMix.Q5_K_M.typeFor("blk.3.ffn_down.weight", 2, 256, 4, true));
        assertEquals(GgmlType.Q5_K, QuantMix.Q5_K_M.typeFor("blk.1.ffn_down.weight", 2, 256, 4, true));
        // Output Q6_K; the embedding too when tied, else the base type.
        assertEquals(GgmlType.Q6_K, QuantMix.Q4_K_M.typeFor("output.weight", 2, 256, 4, true));
        assertEquals(GgmlType.Q4_K, QuantMix.Q4_K_M.typeFor("token_embd.weight", 2, 256, 4, true));
        assertEquals(GgmlType.Q6_K, QuantMix.Q4_K_M.typeFor("token_embd.weight", 2, 256, 4, false));
        assertEquals(GgmlType.Q8_0, QuantMix.Q8_0.typeFor("output.weight", 2, 256, 4, true));
        assertEquals(GgmlType.Q6_K, QuantMix.Q6_K.typeFor("blk.0.attn_q.weight", 2, 256, 4, true));
        // Norms and 1-D tensors keep their type; rows 256 does not divide fall back.
        assertNull(QuantMix.Q4_K_M.typeFor("blk.0.attn_norm.weight", 1, 256, 4, true));
        assertNull(QuantMix.Q4_K_M.typeFor("rope_freqs.weight", 1, 32, 4, true));
        assertEquals(GgmlType.Q5_0, QuantMix.Q4_K_M.typeFor("blk.0.attn_q.weight", 2, 576, 4, true));
        assertEquals(GgmlType.Q5_1, QuantMix.Q5_K_M.typeFor("blk.0.attn_q.weight", 2, 576, 4, true));
        assertEquals(GgmlType.Q8_0, QuantMix.Q4_K_M.typeFor("output.weight", 2, 576, 4, true));
        assertEquals(GgmlType.F16, QuantMix.Q6_K.typeFor("blk.0.attn_q.weight", 2, 40, 4, true));
        assertEquals(QuantMix.Q4_K_M, QuantMix.parse(" q4_k_m "));
        assertEquals(15, QuantMix.Q4_K_M.fileType());
    }
}
