package dev.parley.engine.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Q8_0 quantization of activation rows with the Vector API, bit for bit the scalar definition in
 * {@link Activations}: the block's absolute maximum, {@code q = rint(x * (127 / amax))} (round half to even, done
 * by adding and subtracting 1.5 * 2^23, exact for |v| below 2^22; here |v| is at most about 127) and
 * {@code q * d} with d rounded to FP16. One pass writes the bytes, the shorts and the floats.
 */
final class ActivationQuantizer {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.length() >= 16
            ? FloatVector.SPECIES_512 : FloatVector.SPECIES_256;
    private static final float ROUND = 12582912f; // 1.5 * 2^23
    private static final int BLOCK = Activations.BLOCK;

    private ActivationQuantizer() {
    }

    /** Quantizes {@code count} rows of {@code dim} values (a multiple of 32) of {@code raw}. */
    static void quantize(float[] raw, int count, int dim, byte[] quants, short[] wide, float[] dequantized,
                         float[] scales) {
        int blocks = dim / BLOCK;
        int lanes = F.length();
        int[] ints = new int[BLOCK];
        for (int t = 0; t < count; t++) {
            for (int b = 0; b < blocks; b++) {
                int base = t * dim + b * BLOCK;
                FloatVector m = FloatVector.fromArray(F, raw, base).abs();
                for (int j = lanes; j < BLOCK; j += lanes) {
                    m = m.max(FloatVector.fromArray(F, raw, base + j).abs());
                }
                float amax = m.reduceLanes(VectorOperators.MAX);
                float d = amax / 127f;
                float id = amax != 0f ? 127f / amax : 0f;
                float sd = Float.float16ToFloat(Float.floatToFloat16(d));
                scales[t * blocks + b] = sd;
                for (int j = 0; j < BLOCK; j += lanes) {
                    FloatVector v = FloatVector.fromArray(F, raw, base + j).mul(id).add(ROUND).sub(ROUND);
                    v.mul(sd).intoArray(dequantized, base + j);
                    ((IntVector) v.convert(VectorOperators.F2I, 0)).intoArray(ints, j);
                }
                // Narrowed in scalar code: C2 did not intrinsify the int-to-byte/short vector casts here.
                for (int j = 0; j < BLOCK; j++) {
                    quants[base + j] = (byte) ints[j];
                    wide[base + j] = (short) ints[j];
                }
            }
        }
    }
}
