package dev.parley.engine.backend;

import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Tensor;

/**
 * Computes the matrix products of the transformer. {@link ScalarBackend} is the plain-Java
 * reference; {@link VectorBackend} must agree with it closely on every tensor type.
 */
public interface Backend extends AutoCloseable {

    BackendKind kind();

    /** Worker threads used for one product (1 for a single-threaded backend). */
    int threads();

    /**
     * {@code out[t * w.rows() + r] = dot(row r of w, activation row t of x)} for every row r and
     * every activation row t; each weight row is read once and dotted with all activation rows.
     * The activations are rounded or quantized as llama.cpp does for {@code w}'s type.
     *
     * @throws IllegalArgumentException when the shapes do not fit
     */
    void matmul(Tensor w, Activations x, float[] out);

    /**
     * {@link #matmul} of each {@code ws[i]} with the same {@code x} into {@code outs[i]} (Q/K/V,
     * gate/up): the vector backend shares one dispatch to its threads among all of them. The
     * results are those of separate calls.
     *
     * @throws IllegalArgumentException when the shapes do not fit or the arrays differ in length
     */
    default void matmul(Tensor[] ws, Activations x, float[][] outs) {
        if (ws.length != outs.length) {
            throw new IllegalArgumentException("expected one output per weight but found " + ws.length
                    + " weights and " + outs.length + " outputs");
        }
        for (int i = 0; i < ws.length; i++) {
            matmul(ws[i], x, outs[i]);
        }
    }

    /**
     * Runs {@code task} over {@code [0, n)}, split across {@link #threads()} threads; a thread
     * never runs two pieces at once, so per-thread scratch indexed by {@code thread} is safe.
     */
    void parallelFor(int n, ParallelTask task);

    /** {@code sum a[ao + i] * b[bo + i]} for i below n, in float. */
    float dot(float[] a, int ao, float[] b, int bo, int n);

    /** {@code y[yo + i] += alpha * x[xo + i]} for i below n. */
    void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n);

    /**
     * SwiGLU in place: {@code gate[i] = silu(gate[i]) * up[i]} for i in {@code [from, to)}, with
     * {@code silu(g) = g / (1 + exp(-g))}; the reference computes exp in double and rounds it to float.
     */
    default void swiGlu(float[] gate, float[] up, int from, int to) {
        for (int i = from; i < to; i++) {
            float g = gate[i];
            gate[i] = g / (1f + (float) Math.exp(-g)) * up[i];
        }
    }

    /**
     * Creates a CPU backend of {@code kind}; {@code threads} applies to the vector backend.
     *
     * @throws IllegalArgumentException for cuda or auto: the GPU runs whole forward passes
     *                                  ({@code backend.cuda.CudaModel}), not single products
     */
    static Backend create(BackendKind kind, int threads) {
        return switch (kind) {
            case SCALAR -> new ScalarBackend();
            case VECTOR -> new VectorBackend(threads);
            case CUDA, AUTO -> throw new IllegalArgumentException("expected a CPU backend (scalar or vector) but found "
                    + kind.label() + ": resolve it with BackendChoice and run CUDA through CudaModel");
        };
    }

    /** Checks that {@code w}, {@code x} and {@code out} fit together. */
    static void checkShapes(Tensor w, Activations x, float[] out) {
        if (x.dim() != w.cols()) {
            throw new IllegalArgumentException(w.name() + ": expected activation rows of " + w.cols()
                    + " values but found " + x.dim());
        }
        if (out.length < (long) x.count() * w.rows()) {
            throw new IllegalArgumentException(w.name() + ": expected an output of at least "
                    + (long) x.count() * w.rows() + " floats but found " + out.length);
        }
    }

    /** Stops any worker threads. */
    @Override
    void close();
}
