package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q5_1 weights ({@code block_q5_1}): blocks of 32 values in 24 bytes: FP16 {@code d}, FP16 {@code m}, a
 * little-endian 32-bit {@code qh} (bit j is bit 4 of value j), 16 bytes of nibbles (byte j: value j low, value
 * j + 16 high); value = {@code d * q + m} (q = 0..31). llama.cpp's Q5_K_M files carry it where a row length is not a
 * multiple of 256. The activations are ggml's Q8_1: Q8_0's quants and scale plus {@code s = d * sum(q)}
 * ({@link Activations#blockSums}), so a block contributes {@code d_w * d_x * sum(q_w q_x) + m_w * s_x}, as
 * {@code ggml_vec_dot_q5_1_q8_1}.
 */
public final class Q5_1Tensor extends Tensor {

    public static final int BLOCK_BYTES = 24;

    Q5_1Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q5_1; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_0; }

    /** The 32 quants (0..31) of the block at {@code bo}. */
    static void quants(MemorySegment seg, long bo, int[] q) {
        int qh = seg.get(Layouts.I32, bo + 4);
        for (int j = 0; j < 16; j++) {
            int v = seg.get(Layouts.I8, bo + 8 + j) & 0xff;
            q[j] = (v & 0x0f) | (((qh >>> j) & 1) << 4);
            q[j + 16] = (v >>> 4) | (((qh >>> (j + 16)) & 1) << 4);
        }
    }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        int[] q = new int[Activations.BLOCK];
        for (int b = 0; b < cols() / Activations.BLOCK; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            float m = Float.float16ToFloat(data().get(Layouts.I16, bo + 2));
            quants(data(), bo, q);
            for (int j = 0; j < Activations.BLOCK; j++) {
                out[offset + b * Activations.BLOCK + j] = q[j] * d + m;
            }
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        byte[] q8 = x.quants();
        float[] s = x.scales();
        float[] sums = x.blockSums();
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
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            float m = Float.float16ToFloat(data().get(Layouts.I16, bo + 2));
            sum += (d * s[so + b]) * isum + m * sums[so + b];
        }
        return sum;
    }
}
