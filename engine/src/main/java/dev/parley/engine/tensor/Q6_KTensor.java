package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q6_K weights ({@code block_q6_K}): 256 values in 210 bytes: {@code ql[128]} (low 4 bits), {@code qh[64]}
 * (high 2 bits), 16 signed 8-bit scales (one per 16 values), FP16 {@code d}. In half {@code h} (128 values),
 * value {@code 32k + l} (k = 0..3, l = 0..31) has its low bits in {@code ql[64h + l + 32(k & 1)]} (low nibble
 * for k &lt; 2, high for k &ge; 2) and its high bits in bits {@code 2k, 2k+1} of {@code qh[32h + l]};
 * value = {@code d * scales[8h + 2k + l/16] * (q - 32)}.
 */
public final class Q6_KTensor extends Tensor {

    public static final int BLOCK_BYTES = 210;
    private static final int QK = Q8KActivations.BLOCK;

    Q6_KTensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q6_K; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_K; }

    /** Value {@code i} (0..255) of the block at {@code bo} as a signed quant -32..31. */
    static int quant(MemorySegment seg, long bo, int i) {
        int h = i / 128;
        int k = (i % 128) / 32;
        int l = i % 32;
        int lo = (KScales.u8(seg, bo + 64L * h + l + 32 * (k & 1)) >>> (k < 2 ? 0 : 4)) & 15;
        int hi = (KScales.u8(seg, bo + 128 + 32L * h + l) >>> (2 * k)) & 3;
        return (lo | (hi << 4)) - 32;
    }

    /** Scale of the 16 values starting at {@code i} (a multiple of 16) of the block at {@code bo}. */
    static int scale(MemorySegment seg, long bo, int i) {
        int h = i / 128;
        int k = (i % 128) / 32;
        int l = i % 32;
        return seg.get(Layouts.I8, bo + 192 + 8L * h + 2 * k + l / 16);
    }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        MemorySegment seg = data();
        long base = row * rowBytes();
        for (int b = 0; b < cols() / QK; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(seg.get(Layouts.I16, bo + 208));
            int o = offset + b * QK;
            for (int g = 0; g < QK; g += 16) {
                float ds = d * scale(seg, bo, g);
                for (int i = g; i < g + 16; i++) {
                    out[o + i] = ds * quant(seg, bo, i);
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
            int xo = ab * QK;
            int sumi = 0;
            for (int g = 0; g < QK; g += 16) {
                int isum = 0;
                for (int i = g; i < g + 16; i++) {
                    isum += quant(seg, bo, i) * q8[xo + i];
                }
                sumi += scale(seg, bo, g) * isum;
            }
            sum += Float.float16ToFloat(seg.get(Layouts.I16, bo + 208)) * a.scales()[ab] * sumi;
        }
        return sum;
    }
}
