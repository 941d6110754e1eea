package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

/**
 * Measures what a backend's int8 matrix product can do when memory is not the limit: a Q8_0 matrix small enough to
 * stay in the CPU's caches multiplied by many activation rows, again and again. The result is the ceiling against
 * which batched steps (which stream the whole model from memory) can be compared.
 */
public final class ComputeLimit {

    private ComputeLimit() {
    }

    /**
     * Multiply-adds per second (counted as 2 operations each) of {@code backend} on a cache-resident Q8_0 matrix:
     * the best of four rounds of {@code seconds / 4} after a warm-up of {@code seconds / 2} (the JIT needs a while
     * to compile the kernels, longer on a busy machine).
     */
    public static double int8OpsPerSecond(Backend backend, double seconds) {
        int rows = 1536;
        int cols = 576;
        int tokens = 128;
        SplittableRandom random = new SplittableRandom(42);
        float[] w = new float[rows * cols];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) random.nextGaussian();
        }
        float[] x = new float[tokens * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian();
        }
        try (Arena arena = Arena.ofShared()) { // the backend's worker threads read it
            MemorySegment data = arena.allocate(GgmlType.Q8_0.byteSizeFor((long) rows * cols), 64);
            Q8_0Quantizer.quantize(w, 0, w.length, data, 0);
            Tensor t = Tensor.of("compute-limit", GgmlType.Q8_0, data, rows, cols);
            Activations act = new Activations(tokens, cols);
            float[] out = new float[rows * tokens];
            long budget = (long) (seconds * 1e9);
            for (long end = System.nanoTime() + budget / 2; System.nanoTime() < end; ) {
                act.set(x, tokens, cols);
                backend.matmul(t, act, out);
            }
            double best = 0;
            for (int round = 0; round < 4; round++) {
                long calls = 0;
                long start = System.nanoTime();
                long now;
                do {
                    act.set(x, tokens, cols);
                    backend.matmul(t, act, out);
                    calls++;
                    now = System.nanoTime();
                } while (now - start < budget / 4);
                best = Math.max(best, 2.0 * rows * cols * tokens * calls / ((now - start) / 1e9));
            }
            return best;
        }
    }
}
