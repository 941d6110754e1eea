package dev.parley.engine.backend;

import dev.parley.engine.tensor.ActivationFormat;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.BF16Tensor;
import dev.parley.engine.tensor.F16Tensor;
import dev.parley.engine.tensor.F32Tensor;
import dev.parley.engine.tensor.Q4_0Tensor;
import dev.parley.engine.tensor.Q8_0Tensor;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * The fast backend: Vector API kernels per tensor type, output rows split over a fixed pool of
 * {@code threads} threads (the caller is one of them). Weights are read straight from the mapping.
 */
public final class VectorBackend implements Backend {

    private final WorkerPool pool;

    public VectorBackend(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        this.pool = new WorkerPool(threads, "parley-vector");
    }

    @Override
    public BackendKind kind() { return BackendKind.VECTOR; }

    @Override
    public int threads() { return pool.threads(); }

    @Override
    public void matmul(Tensor w, Activations x, float[] out) {
        Backend.checkShapes(w, x, out);
        x.prepare(w.activationFormat());
        pool.parallelFor(w.rows(), (from, to, thread) -> rows(w, x, out, from, to));
    }

    @Override
    public void parallelFor(int n, ParallelTask task) {
        pool.parallelFor(n, task);
    }

    @Override
    public float dot(float[] a, int ao, float[] b, int bo, int n) {
        return VectorKernels.dot(a, ao, b, bo, n);
    }

    @Override
    public void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        VectorKernels.axpy(alpha, x, xo, y, yo, n);
    }

    private static void rows(Tensor w, Activations x, float[] out, int from, int to) {
        MemorySegment seg = w.data();
        long rowBytes = w.rowBytes();
        int rows = w.rows();
        int cols = w.cols();
        int count = x.count();
        int dim = x.dim();
        switch (w) {
            case Q8_0Tensor q -> {
                short[] qs = x.wideQuants();
                float[] sc = x.scales();
                int blocks = cols / Activations.BLOCK;
                int pairs = count - count % 2;
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < pairs; t += 2) {
                        VectorKernels.dotQ8_0x2(seg, r * rowBytes, blocks, qs, dim, t, sc, out, rows, r);
                    }
                    for (int t = pairs; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotQ8_0(seg, r * rowBytes, blocks, qs, t * dim, sc, t * blocks);
                    }
                }
            }
            case Q4_0Tensor q -> {
                short[] qs = x.wideQuants();
                float[] sc = x.scales();
                int blocks = cols / Activations.BLOCK;
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotQ4_0(seg, r * rowBytes, blocks, qs, t * dim, sc, t * blocks);
                    }
                }
            }
            case F16Tensor h -> {
                float[] a = x.rounded(ActivationFormat.F16);
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotF16(seg, r * rowBytes, cols, a, t * dim);
                    }
                }
            }
            case BF16Tensor h -> {
                float[] a = x.rounded(ActivationFormat.BF16);
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotBF16(seg, r * rowBytes, cols, a, t * dim);
                    }
                }
            }
            case F32Tensor f -> {
                float[] a = x.raw();
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotF32(seg, r * rowBytes, cols, a, t * dim);
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "vector x" + threads();
    }
}
