package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q5_K weights ({@code block_q5_K}): like {@link Q4_KTensor} with 32 bytes {@code qh} between the scales and the
 * nibbles, 176 bytes per 256 values: FP16 {@code d}, FP16 {@code dmin}, 12 bytes of scales and mins, {@code qh[32]},
 * {@code qs[128]}. Bit {@code j} of {@code qh[l]} is bit 4 of value {@code l} of sub-block {@code j}
 * (q = 0..31); value = {@code d*sc * q - dmin*m}.
 */
public final class Q5_KTensor extends Tensor {

    public static final int BLOCK_BYTES = 176;
    private static final int QK = Q8KActivations.BLOCK;

    Q5_KTensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q5_K; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_K; }

    /** The 5-bit quant {@code l} (0..31) of sub-block {@code j} of the block at {@code bo}. */
    static int quant(MemorySegment seg, long bo, int j, int l) {
        int lo = (KScales.u8(seg, bo + 48 + 32L * (j / 2) + l) >>> ((j & 1) * 4)) & 15;
        int hi = (KScales.u8(seg, bo + 16 + l) >>> j) & 1;
        return lo | (hi << 4);
    }

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
                for (int l = 0; l < 32; l++) {
                    out[o + 32 * j + l] = d1 * quant(seg, bo, j, l) - m1;
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
                int isum = 0;
                for (int l = 0; l < 32; l++) {
                    isum += quant(seg, bo, j, l) * q8[xo + 32 * j + l];
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
