package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.SharedFixtures;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TensorEncoderTest {

    /** Mixed magnitudes, exact halves, zeros, a whole zero block, and ties for the largest magnitude. */
    static float[] awkwardValues() {
        Random r = new Random(42);
        float[] x = new float[32 * 64];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 4));
        }
        for (int i = 32; i < 64; i++) {
            x[i] = 0f; // an all-zero block
        }
        for (int i = 64; i < 128; i++) {
            x[i] = 0f;
        }
        // Block 2: amax 127 makes the Q8_0 scale exactly 1, so these halves must round away from zero.
        x[64] = 127f;
        x[65] = -2.5f;
        x[66] = 2.5f;
        x[67] = -0.5f;
        x[68] = 0.5f;
        // Block 3: equal largest magnitudes; the first one sets Q4_0's sign.
        x[96] = 3f;
        x[97] = -3f;
        x[98] = 0.1f;
        return x;
    }

    @Test
    void f32RoundTripsExactly() {
        float[] x = awkwardValues();
        assertArrayEquals(x, TensorEncoder.decode(GgmlType.F32, TensorEncoder.encode(GgmlType.F32, x)));
    }

    @Test
    void f16IsWithinHalfAnUlpAndMatchesJavaRounding() {
        float[] x = awkwardValues();
        byte[] enc = TensorEncoder.encode(GgmlType.F16, x);
        assertEquals(2 * x.length, enc.length);
        float[] y = TensorEncoder.decode(GgmlType.F16, enc);
        for (int i = 0; i < x.length; i++) {
            assertEquals(Float.float16ToFloat(Float.floatToFloat16(x[i])), y[i], 0f, "element " + i);
            if (Math.abs(x[i]) > 6.2e-5f && Math.abs(x[i]) < 65000f) { // normal fp16 range
                assertTrue(Math.abs(x[i] - y[i]) <= Math.abs(x[i]) * 0x1p-11f, "element " + i + ": " + x[i] + " -> " + y[i]);
            }
        }
    }

    @Test
    void f16NaNIsGgmlsCanonicalQuietNaN() {
        byte[] enc = TensorEncoder.encode(GgmlType.F16, new float[] {Float.intBitsToFloat(0x7f82b6e6), Float.intBitsToFloat(0xff989541),
                Float.POSITIVE_INFINITY, 70000f, 0x1p-25f, 0x1p-24f * 1.5f});
        java.nio.ShortBuffer h = java.nio.ByteBuffer.wrap(enc).order(java.nio.ByteOrder.LITTLE_ENDIAN).asShortBuffer();
        assertEquals((short) 0x7e00, h.get(0));
        assertEquals((short) 0xfe00, h.get(1));
        assertEquals((short) 0x7c00, h.get(2), "infinity");
        assertEquals((short) 0x7c00, h.get(3), "overflow becomes infinity");
        assertEquals((short) 0x0000, h.get(4), "2^-25 is a tie between 0 and the smallest subnormal: even wins");
        assertEquals((short) 0x0002, h.get(5), "1.5 * 2^-24 is a tie between 1 and 2 subnormal steps: even wins");
    }

    @Test
    void bf16RoundsToNearestEven() {
        // 1 + 2^-8 lies exactly between two bf16 values (1 and 1 + 2^-7): ties go to the even one (1).
        assertEquals(1f, TensorEncoder.bf16ToFp32(TensorEncoder.fp32ToBf16(1f + 0x1p-8f)));
        // 1 + 3*2^-8 lies between 1 + 2^-7 (odd) and 1 + 2^-6 (even): goes up.
        assertEquals(1f + 0x1p-6f, TensorEncoder.bf16ToFp32(TensorEncoder.fp32ToBf16(1f + 3 * 0x1p-8f)));
        assertEquals(1f + 0x1p-7f, TensorEncoder.bf16ToFp32(TensorEncoder.fp32ToBf16(1f + 0x1p-7f + 0x1p-12f)));
        assertTrue(Float.isNaN(TensorEncoder.bf16ToFp32(TensorEncoder.fp32ToBf16(Float.NaN))));
        float[] x = awkwardValues();
        float[] y = TensorEncoder.decode(GgmlType.BF16, TensorEncoder.encode(GgmlType.BF16, x));
        for (int i = 0; i < x.length; i++) {
            assertTrue(Math.abs(x[i] - y[i]) <= Math.abs(x[i]) * 0x1p-8f, "element " + i);
        }
    }

    @Test
    void q8_0ErrorIsWithinHalfAStep() {
        float[] x = awkwardValues();
        byte[] enc = TensorEncoder.encode(GgmlType.Q8_0, x);
        assertEquals(x.length / 32 * 34, enc.length);
        float[] y = TensorEncoder.decode(GgmlType.Q8_0, enc);
        MemorySegment seg = MemorySegment.ofArray(enc);
        for (int b = 0; b < x.length / 32; b++) {
            float amax = 0;
            for (int j = 0; j < 32; j++) {
                amax = Math.max(amax, Math.abs(x[32 * b + j]));
            }
            float d = amax / 127;
            float d16 = Float.float16ToFloat(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 34L * b));
            assertEquals(Float.float16ToFloat(Float.floatToFloat16(d)), d16, 0f, "block " + b + " scale");
            int maxQ = 0;
            for (int j = 0; j < 32; j++) {
                int i = 32 * b + j;
                int q = enc[34 * b + 2 + j];
                maxQ = Math.max(maxQ, Math.abs(q));
                // |x - q*d16| <= |x - q*d| + |q|*|d - d16| <= d/2 + 127*|d - d16|
                double bound = d / 2 + 127 * Math.abs(d - d16) + 1e-6 * amax;
                assertTrue(Math.abs(x[i] - y[i]) <= bound, "element " + i + ": " + x[i] + " -> " + y[i] + ", bound " + bound);
            }
            assertEquals(amax == 0 ? 0 : 127, maxQ, "block " + b + " uses the full range");
        }
        // Exact halves round away from zero like C's roundf (Math.round would give -2 and 0 for -2.5 and -0.5).
        assertArrayEquals(new byte[] {127, -3, 3, -1, 1, 0}, java.util.Arrays.copyOfRange(enc, 34 * 2 + 2, 34 * 2 + 8));
    }

    @Test
    void q4_0ErrorIsWithinItsGrid() {
        float[] x = awkwardValues();
        byte[] enc = TensorEncoder.encode(GgmlType.Q4_0, x);
        assertEquals(x.length / 32 * 18, enc.length);
        float[] y = TensorEncoder.decode(GgmlType.Q4_0, enc);
        MemorySegment seg = MemorySegment.ofArray(enc);
        for (int b = 0; b < x.length / 32; b++) {
            float amax = 0;
            float max = 0;
            for (int j = 0; j < 32; j++) {
                float v = x[32 * b + j];
                if (amax < Math.abs(v)) {
                    amax = Math.abs(v);
                    max = v;
                }
            }
            float d = max / -8;
            float d16 = Float.float16ToFloat(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 18L * b));
            for (int j = 0; j < 32; j++) {
                int i = 32 * b + j;
                int byteVal = enc[18 * b + 2 + (j % 16)] & 0xFF;
                int q = j < 16 ? byteVal & 0xF : byteVal >>> 4;
                boolean clamped = d != 0 && x[i] / d + 8.5f >= 16f; // the opposite extreme lands on 8, clamped to 7
                double step = Math.abs(d);
                double bound = (clamped ? step : step / 2) + 8 * Math.abs(d - d16) + 1e-6 * amax;
                assertTrue(Math.abs(x[i] - y[i]) <= bound, "element " + i + ": " + x[i] + " -> " + y[i] + " (q " + q + ")");
                if (x[i] == max && amax != 0) {
                    assertEquals(0, q, "the largest magnitude maps to -8");
                }
            }
        }
        // Block 3: x[96] = 3 comes first, so d = 3 / -8 and x[97] = -3 maps to q = 16 -> clamped to 15.
        assertEquals(0, enc[18 * 3 + 2] & 0xF);
        assertEquals(15, (enc[18 * 3 + 2 + 1] & 0xF));
    }

    /**
     * m2 stores the same weights as m1 in F16, and the parity README says ggml's reference Q8_0
     * quantizer turns m2's F16 tensors into m1's Q8_0 bytes exactly: so must ours.
     */
    @Test
    void q8_0MatchesGgmlByteForByteOnTheParityModels() throws Exception {
        Path f16 = SharedFixtures.require("parity/m2-llama-spm-f16.gguf");
        Path q8 = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        try (GgufFile a = GgufFile.open(f16); GgufFile b = GgufFile.open(q8)) {
            int checked = 0;
            for (GgufTensorInfo t : a.tensors()) {
                if (t.type() != GgmlType.F16) {
                    continue;
                }
                GgufTensorInfo ref = b.tensor(t.name());
                assertEquals(GgmlType.Q8_0, ref.type(), t.name());
                int n = Math.toIntExact(t.elementCount());
                float[] values = TensorEncoder.decode(GgmlType.F16, a.tensorData(t), n);
                byte[] mine = TensorEncoder.encode(GgmlType.Q8_0, values);
                byte[] ggml = b.tensorData(ref).toArray(ValueLayout.JAVA_BYTE);
                assertArrayEquals(ggml, mine, t.name());
                checked++;
            }
            assertEquals(28, checked, "the README lists 28 F16 tensors");
        }
    }
}
