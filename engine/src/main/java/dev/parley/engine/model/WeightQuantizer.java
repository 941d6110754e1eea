package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Quantizes the F32, F16, BF16 and K-quant (Q4_K, Q5_K, Q6_K) matrices of {@link Weights} to Q8_0 into an {@link Arena}, rows split over a
 * fixed number of threads, reporting progress in source bytes. Which tensors are converted is decided by
 * {@link #converts}, which {@link MemoryReport} also uses to predict the memory before loading.
 */
final class WeightQuantizer {

    /** Rows per task: small enough to balance, large enough to keep the progress updates rare. */
    private static final int ROWS_PER_TASK = 256;

    private WeightQuantizer() {
    }

    /**
     * Whether {@code t} becomes Q8_0 under {@code options}; {@code embeddingOrOutput} marks the token embedding
     * and the output matrix.
     */
    static boolean converts(Tensor t, boolean embeddingOrOutput, ModelOptions options) {
        if (options.weights() != WeightFormat.INT8 || (embeddingOrOutput && options.keepEmbeddings())) {
            return false;
        }
        GgmlType type = t.type();
        boolean convertible = switch (type) {
            case F32, F16, BF16, Q4_K, Q5_K, Q6_K -> true;
            default -> false;
        };
        return convertible && Q8_0Quantizer.fits(t.cols());
    }

    /** {@code stored} with every converted matrix replaced by its Q8_0 copy allocated in {@code arena}. */
    static Weights quantize(Weights stored, ModelOptions options, Arena arena, LoadProgress progress) {
        Map<Tensor, Tensor> plan = new IdentityHashMap<>();
        consider(plan, stored.tokenEmbedding(), true, options);
        consider(plan, stored.output(), true, options);
        for (LayerWeights l : stored.layers()) {
            for (Tensor t : List.of(l.wq(), l.wk(), l.wv(), l.wo(), l.wGate(), l.wUp(), l.wDown())) {
                consider(plan, t, false, options);
            }
        }
        if (plan.isEmpty()) {
            return stored;
        }
        long total = 0;
        for (Tensor t : plan.keySet()) {
            total += t.byteSize();
        }
        List<Tensor> sources = new ArrayList<>(plan.keySet());
        Map<Tensor, MemorySegment> targets = new IdentityHashMap<>();
        for (Tensor t : sources) {
            targets.put(t, arena.allocate(GgmlType.Q8_0.byteSizeFor(t.cols()) * t.rows(), 64));
        }
        run(sources, targets, options.threads(), total, progress);
        for (Tensor t : sources) {
            if (t.data().isMapped()) {
                t.data().unload(); // pages read again across range edges while quantizing
            }
        }
        for (Tensor t : sources) {
            plan.put(t, Tensor.of(t.name(), GgmlType.Q8_0, targets.get(t), t.rows(), t.cols()));
        }
        List<LayerWeights> layers = new ArrayList<>();
        for (LayerWeights l : stored.layers()) {
            layers.add(l.withMatrices(swap(plan, l.wq()), swap(plan, l.wk()), swap(plan, l.wv()), swap(plan, l.wo()),
                    swap(plan, l.wGate()), swap(plan, l.wUp()), swap(plan, l.wDown())));
        }
        return new Weights(swap(plan, stored.tokenEmbedding()), layers, stored.outputNorm(), swap(plan, stored.output()),
                stored.ropeFreqFactors());
    }

    private static void consider(Map<Tensor, Tensor> plan, Tensor t, boolean embeddingOrOutput, ModelOptions options) {
        if (converts(t, embeddingOrOutput, options)) {
            plan.put(t, t);
        }
    }

    private static Tensor swap(Map<Tensor, Tensor> plan, Tensor t) {
        return plan.getOrDefault(t, t);
    }

    private static void run(List<Tensor> sources, Map<Tensor, MemorySegment> targets, int threads, long total,
                            LoadProgress progress) {
        AtomicLong done = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread th = new Thread(r, "parley-quantize");
            th.setDaemon(true);
            return th;
        });
        ThreadLocal<float[]> scratch = new ThreadLocal<>();
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (Tensor t : sources) {
                MemorySegment dst = targets.get(t);
                for (int from = 0; from < t.rows(); from += ROWS_PER_TASK) {
                    int f = from;
                    int to = Math.min(t.rows(), from + ROWS_PER_TASK);
                    tasks.add(pool.submit(() -> {
                        float[] row = scratch.get();
                        if (row == null || row.length < t.cols()) {
                            row = new float[t.cols()];
                            scratch.set(row);
                        }
                        Q8_0Quantizer.quantizeRows(t, f, to, dst, row);
                        if (t.data().isMapped()) {
                            // These source rows are not read again: let the OS drop their pages from the resident
                            // set now, so that the peak holds the int8 copy and little of the source.
                            t.data().asSlice(f * t.rowBytes(), (to - f) * t.rowBytes()).unload();
                        }
                        progress.update(done.addAndGet(t.rowBytes() * (to - f)), total);
                    }));
                }
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while quantizing the weights", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("quantizing the weights failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
