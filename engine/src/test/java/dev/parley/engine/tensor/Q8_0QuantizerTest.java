package dev.parley.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The engine's Q8_0 quantizer: every block's round-trip error within the Q8_0 bound, and its edge cases. */
class Q8_0QuantizerTest {

    /**
     * The bound of one value: half a quantization step of the exact scale {@code amax / 127}, plus what the FP16
     * rounding of the scale adds to the largest quant (127 steps), plus float rounding.
     */
    static float bound(float amax, float storedScale) {
        float d = amax / 127;
        return d / 2 + 127 * Math.abs(d - storedScale) + amax * 1e-6f;
    }

    /** Checks every block of {@code src} against its Q8_0 encoding {@code q}; returns the largest error / bound. */
    static double checkBlocks(float[] src, MemorySegment q, long at, String what) {
        double worst = 0;
        for (int b = 0; b < src.length / 32; b++) {
            long bo = at + 34L * b;
            float d = Float.float16ToFloat(q.get(Layouts.I16, bo));
            float amax = 0;
            for (int j = 0; j < 32; j++) {
                amax = Math.max(amax, Math.abs(src[32 * b + j]));
            }
            float bound = bound(amax, d);
            for (int j = 0; j < 32; j++) {
                float err = Math.abs(src[32 * b + j] - d * q.get(Layouts.I8, bo + 2 + j));
                assertTrue(err <= bound, what + " block " + b + " value " + j + ": error " + err + " above " + bound);
                if (bound > 0) {
                    worst = Math.max(worst, err / bound);
                }
            }
        }
        return worst;
    }

    @Test
    void everyBlockOfRandomDataIsWithinTheBound() {
        Random rnd = new Random(7);
        float[] x = new float[32 * 4000];
        for (int i = 0; i < x.length; i++) {
            double scale = Math.pow(10, (i / 32) % 9 - 5); // blocks from 1e-5 to 1e3
            x[i] = (float) (rnd.nextGaussian() * scale);
        }
        byte[] q = Q8_0Quantizer.quantize(x);
        assertEquals(GgmlType.Q8_0.byteSizeFor(x.length), q.length);
        double worst = checkBlocks(x, MemorySegment.ofArray(q), 0, "random");
        assertTrue(worst > 0.5, "the bound should be nearly reached somewhere, worst ratio " + worst);
    }

    @Test
    void zeroBlocksHaveZeroScaleAndQuants() {
        byte[] q = Q8_0Quantizer.quantize(new float[64]);
        for (byte b : q) {
            assertEquals(0, b);
        }
    }

    @Test
    void theLargestMagnitudeMapsToPlusOrMinus127AndHalvesRoundAway() {
        float[] x = new float[32];
        x[0] = -127f;  // d = 1 exactly
        x[1] = 2.5f;   // halfway: roundf gives 3, not Java's Math.rint 2
        x[2] = -2.5f;
        x[3] = 0.49f;
        byte[] q = Q8_0Quantizer.quantize(x);
        assertEquals(1f, Float.float16ToFloat((short) ((q[0] & 0xff) | (q[1] << 8))));
        assertEquals(-127, q[2]);
        assertEquals(3, q[3]);
        assertEquals(-3, q[4]);
        assertEquals(0, q[5]);
    }

    @Test
    void rowsNotAMultipleOf32AreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Q8_0Quantizer.quantize(new float[33]));
    }
}
