package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q4_K weights ({@code block_q4_K}): super-blocks of 256 values in 144 bytes: FP16 {@code d}, FP16 {@code dmin},
 * 12 bytes of 6-bit scales and mins for 8 sub-blocks of 32 ({@link KScales}), 128 bytes of nibbles. Values
 * {@code 64c .. 64c+31} are the low nibbles of bytes {@code 32c .. 32c+31}, values {@code 64c+32 .. 64c+63} their
 * high nibbles; value = {@code d*sc * q - dmin*m}. Dotted with Q8_K activations: integer sums per sub-block,
 * the mins through the activations' sums of 16, as ggml's {@code ggml_vec_dot_q4_K_q8_K}.
 */
public final class Q4_KTensor extends Tensor {

    public static final int BLOCK_BYTES = 144;
    private static final int QK = Q8KActivations.BLOCK;

    Q4_KTensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q4_K; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_K; }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        MemorySegment seg = data();
        long base = row * rowBytes();
        for (int b = 0; b < cols() / QK; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(seg.get(Layouts.I16, bo));
            float dmin = Float.float16ToFloat(seg.get(Layouts.I16, bo + 2));
            int o = offset + b * QK;
            for (int j = 0; j < 8; j++) {
                float d1 = d * KScales.scale(seg, bo + 4, j);
                float m1 = dmin * KScales.min(seg, bo + 4, j);
                long qs = bo + 16 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                for (int l = 0; l < 32; l++) {
                    int q = (KScales.u8(seg, qs + l) >>> shift) & 15;
                    out[o + 32 * j + l] = d1 * q - m1;
                }
            }
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        Q8KActivations a = x.q8k();
        byte[] q8 = a.quants();
        int blocks = cols() / QK;
        MemorySegment seg = data();
        long base = row * rowBytes();
        float sum = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            int ab = t * blocks + b;
            float yd = a.scales()[ab];
            int xo = ab * QK;
            int sumi = 0;
            int summ = 0;
            for (int j = 0; j < 8; j++) {
                long qs = bo + 16 + 32L * (j / 2);
                int shift = (j & 1) * 4;
                int isum = 0;
                for (int l = 0; l < 32; l++) {
                    isum += ((KScales.u8(seg, qs + l) >>> shift) & 15) * q8[xo + 32 * j + l];
                }
                sumi += KScales.scale(seg, bo + 4, j) * isum;
                summ += KScales.min(seg, bo + 4, j) * (a.bsums()[ab * 16 + 2 * j] + a.bsums()[ab * 16 + 2 * j + 1]);
            }
            float d = Float.float16ToFloat(seg.get(Layouts.I16, bo)) * yd;
            float dmin = Float.float16ToFloat(seg.get(Layouts.I16, bo + 2)) * yd;
            sum += d * sumi - dmin * summ;
        }
        return sum;
    }
}
