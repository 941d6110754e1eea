package dev.parley.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ActivationsTest {

    @Test
    void quantizesToQ8_0BlocksWithFp16ScalesAsGgml() {
        Random rnd = new Random(1);
        float[] x = RandomTensors.activations(3, 64, rnd);
        x[5] = 0.5f; // a block whose maximum is exact
        Activations a = new Activations(4, 128).set(x, 3, 64);
        a.prepare(ActivationFormat.Q8_0);
        for (int t = 0; t < 3; t++) {
            for (int b = 0; b < 2; b++) {
                float amax = 0;
                for (int j = 0; j < 32; j++) {
                    amax = Math.max(amax, Math.abs(x[t * 64 + b * 32 + j]));
                }
                float d = a.scales()[t * 2 + b];
                assertEquals(Float.float16ToFloat(Float.floatToFloat16(amax / 127f)), d, "block scale is amax/127 in FP16");
                int biggest = 0;
                for (int j = 0; j < 32; j++) {
                    int i = t * 64 + b * 32 + j;
                    biggest = Math.max(biggest, Math.abs(a.quants()[i]));
                    assertEquals(Math.rint(x[i] * (127f / amax)), a.quants()[i], "quant of " + x[i]);
                }
                assertEquals(127, biggest, "the largest value maps to +-127");
            }
        }
    }

    @Test
    void vectorQuantizationEqualsTheScalarDefinitionBitForBit() {
        // Random rows, plus blocks that test the edges: all zeros, exact ties (x * 127 / amax = k + 0.5), a tiny
        // block whose FP16 scale underflows to zero, negative values that round to zero, huge and subnormal values.
        Random rnd = new Random(21);
        int count = 5;
        int dim = 32 * 12;
        float[] x = new float[count * dim];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
        }
        for (int j = 0; j < 32; j++) {
            x[32 + j] = 0f;
            x[64 + j] = j == 0 ? 127f : (j - 16) + 0.5f; // amax 127: x * id is x, ties everywhere
            x[96 + j] = j == 0 ? 1e-9f : -1e-12f * j;
            x[128 + j] = j % 2 == 0 ? -0.001f : 0.5f;
            x[160 + j] = j == 3 ? 3e38f : -1e-40f * j;
        }
        Activations a = new Activations(count, dim).set(x, count, dim);
        a.prepare(ActivationFormat.Q8_0);
        byte[] q = new byte[x.length];
        short[] wq = new short[x.length];
        float[] dq = new float[x.length];
        float[] sc = new float[count * dim / 32];
        Activations.quantizeScalar(x, count, dim, q, wq, dq, sc);
        for (int i = 0; i < x.length; i++) {
            assertEquals(q[i], a.quants()[i], "quant " + i);
            assertEquals(wq[i], a.wideQuants()[i], "wide quant " + i);
            assertEquals(Float.floatToIntBits(dq[i]), Float.floatToIntBits(a.dequantizedQuants()[i]),
                    "dequantized " + i + ": " + dq[i] + " vs " + a.dequantizedQuants()[i]);
        }
        for (int b = 0; b < sc.length; b++) {
            assertEquals(Float.floatToIntBits(sc[b]), Float.floatToIntBits(a.scales()[b]), "scale " + b);
        }
    }

    @Test
    void roundsToHalfAndBfloatPrecision() {
        float[] x = {1.0009766f, 3.14159265f, -2.7182817f, 1e-7f};
        Activations a = new Activations(1, 4).set(x, 1, 4);
        a.prepare(ActivationFormat.F16);
        assertEquals(1.0009766f, a.rounded(ActivationFormat.F16)[0]);
        assertEquals(3.140625f, a.rounded(ActivationFormat.F16)[1]);
        a.prepare(ActivationFormat.BF16);
        assertEquals(3.140625f, a.rounded(ActivationFormat.BF16)[1]);
        assertEquals(-2.71875f, a.rounded(ActivationFormat.BF16)[2]);
        assertThrows(IllegalStateException.class, () -> a.rounded(ActivationFormat.F16));
    }

    @Test
    void rejectsRowsBeyondItsBuffers() {
        Activations a = new Activations(2, 8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.set(new float[27], 3, 9));
        assertTrue(e.getMessage().contains("expected up to 2 rows"), e.getMessage());
    }
}
