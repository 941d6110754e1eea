package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q5_0 weights ({@code block_q5_0}): blocks of 32 values in 22 bytes: FP16 {@code d}, a little-endian 32-bit
 * {@code qh} (bit j is bit 4 of value j), 16 bytes of nibbles (byte j: value j low, value j + 16 high);
 * value = {@code d * (q - 16)}. llama.cpp's Q4_K_M files carry it where a row length is not a multiple of 256
 * (llama-quantize's fallback for Q4_K). Dotted with Q8_0-quantized activations, integer sums per block, as ggml's
 * {@code ggml_vec_dot_q5_0_q8_0}.
 */
public final class Q5_0Tensor extends Tensor {

    public static final int BLOCK_BYTES = 22;

    Q5_0Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q5_0; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_0; }

    /** The 32 signed quants (-16..15) of the block at {@code bo}. */
    static void quants(MemorySegment seg, long bo, int[] q) {
        int qh = seg.get(Layouts.I32, bo + 2);
        for (int j = 0; j < 16; j++) {
            int v = seg.get(Layouts.I8, bo + 6 + j) & 0xff;
            q[j] = ((v & 0x0f) | (((qh >>> j) & 1) << 4)) - 16;
            q[j + 16] = ((v >>> 4) | (((qh >>> (j + 16)) & 1) << 4)) - 16;
        }
    }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        int[] q = new int[Activations.BLOCK];
        for (int b = 0; b < cols() / Activations.BLOCK; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            quants(data(), bo, q);
            for (int j = 0; j < Activations.BLOCK; j++) {
                out[offset + b * Activations.BLOCK + j] = q[j] * d;
            }
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        byte[] q8 = x.quants();
        float[] s = x.scales();
        int blocks = cols() / Activations.BLOCK;
        int qo = t * x.dim();
        int so = t * blocks;
        long base = row * rowBytes();
        int[] q = new int[Activations.BLOCK];
        float sum = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            quants(data(), bo, q);
            int isum = 0;
            for (int j = 0; j < Activations.BLOCK; j++) {
                isum += q[j] * q8[qo + b * Activations.BLOCK + j];
            }
            sum += (Float.float16ToFloat(data().get(Layouts.I16, bo)) * s[so + b]) * isum;
        }
        return sum;
    }
}
