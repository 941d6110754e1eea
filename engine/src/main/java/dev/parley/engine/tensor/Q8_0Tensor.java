package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q8_0 weights: blocks of 32 values stored as an FP16 scale {@code d} and 32 signed bytes
 * (34 bytes); value = d * q. The dot product with Q8_0-quantized activations sums
 * {@code int8 x int8} per block and scales the integer sum by {@code d_w * d_x}, as ggml does.
 */
public final class Q8_0Tensor extends Tensor {

    public static final int BLOCK_BYTES = 34;

    Q8_0Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q8_0; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_0; }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        int blocks = cols() / Activations.BLOCK;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            for (int j = 0; j < Activations.BLOCK; j++) {
                out[offset + b * Activations.BLOCK + j] = d * data().get(Layouts.I8, bo + 2 + j);
            }
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        byte[] q = x.quants();
        float[] s = x.scales();
        int blocks = cols() / Activations.BLOCK;
        int qo = t * x.dim();
        int so = t * blocks;
        long base = row * rowBytes();
        float sum = 0f;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            int isum = 0;
            int xo = qo + b * Activations.BLOCK;
            for (int j = 0; j < Activations.BLOCK; j++) {
                isum += data().get(Layouts.I8, bo + 2 + j) * q[xo + j];
            }
            sum += (d * s[so + b]) * isum;
        }
        return sum;
    }
}
