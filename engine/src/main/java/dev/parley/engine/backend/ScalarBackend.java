package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Tensor;

/** The reference backend: single-threaded plain loops over each tensor's scalar dot product. */
public final class ScalarBackend implements Backend {

    @Override
    public BackendKind kind() { return BackendKind.SCALAR; }

    @Override
    public int threads() { return 1; }

    @Override
    public void matmul(Tensor w, Activations x, float[] out) {
        Backend.checkShapes(w, x, out);
        x.prepare(w.activationFormat());
        int rows = w.rows();
        int count = x.count();
        for (int r = 0; r < rows; r++) {
            for (int t = 0; t < count; t++) {
                out[t * rows + r] = w.dot(r, x, t);
            }
        }
    }

    @Override
    public void parallelFor(int n, ParallelTask task) {
        task.run(0, n, 0);
    }

    @Override
    public float dot(float[] a, int ao, float[] b, int bo, int n) {
        float sum = 0f;
        for (int i = 0; i < n; i++) {
            sum += a[ao + i] * b[bo + i];
        }
        return sum;
    }

    @Override
    public void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        for (int i = 0; i < n; i++) {
            y[yo + i] += alpha * x[xo + i];
        }
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "scalar";
    }
}
