package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/** Plain float32 weights; activations are used as they are. */
public final class F32Tensor extends Tensor {

    F32Tensor(String name, MemorySegment data, int rows, int cols) {
        super(name, data, rows, cols);
    }

    @Override
    public GgmlType type() { return GgmlType.F32; }

    @Override
    public ActivationFormat activationFormat() { return ActivationFormat.F32; }

    @Override
    public void dequantizeRow(int row, float[] out, int offset) {
        long base = row * rowBytes();
        for (int i = 0; i < cols(); i++) {
            out[offset + i] = data().get(Layouts.F32, base + 4L * i);
        }
    }

    @Override
    public float dot(int row, Activations x, int t) {
        float[] a = x.raw();
        int ao = t * x.dim();
        long base = row * rowBytes();
        float sum = 0f;
        for (int i = 0; i < cols(); i++) {
            sum += data().get(Layouts.F32, base + 4L * i) * a[ao + i];
        }
        return sum;
    }
}
