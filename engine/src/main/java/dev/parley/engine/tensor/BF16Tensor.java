package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/** bfloat16 weights; llama.cpp rounds the activations to BF16 too. */
public final class BF16Tensor extends Tensor {

    BF16Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.BF16; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.BF16; }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        for (int i = 0; i < cols(); i++) {
            out[offset + i] = Bf16.toFloat(data().get(Layouts.I16, base + 2L * i));
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        float[] a = x.rounded(ActivationFormat.BF16);
        int ao = t * x.dim();
        long base = row * rowBytes();
        float sum = 0f;
        for (int i = 0; i < cols(); i++) {
            sum += Bf16.toFloat(data().get(Layouts.I16, base + 2L * i)) * a[ao + i];
        }
        return sum;
    }
}
