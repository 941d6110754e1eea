package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * Q4_0 weights: blocks of 32 values stored as an FP16 scale {@code d} and 16 bytes of nibbles
 * (18 bytes). Byte j holds value j in its low nibble and value j + 16 in its high nibble;
 * value = d * (nibble - 8). Dotted with Q8_0-quantized activations, integer sums per block.
 */
public final class Q4_0Tensor extends Tensor {

    public static final int BLOCK_BYTES = 18;

    Q4_0Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.Q4_0; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.Q8_0; }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        int blocks = cols() / Activations.BLOCK;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * BLOCK_BYTES;
            float d = Float.float16ToFloat(data().get(Layouts.I16, bo));
            int o = offset + b * Activations.BLOCK;
            for (int j = 0; j < 16; j++) {
                int v = data().get(Layouts.I8, bo + 2 + j) & 0xff;
                out[o + j] = d * ((v & 0x0f) - 8);
                out[o + j + 16] = d * ((v >>> 4) - 8);
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
            int xo = qo + b * Activations.BLOCK;
            int isum = 0;
            for (int j = 0; j < 16; j++) {
                int v = data().get(Layouts.I8, bo + 2 + j) & 0xff;
                isum += ((v & 0x0f) - 8) * q[xo + j] + ((v >>> 4) - 8) * q[xo + j + 16];
            }
            sum += (d * s[so + b]) * isum;
        }
        return sum;
    }
}
