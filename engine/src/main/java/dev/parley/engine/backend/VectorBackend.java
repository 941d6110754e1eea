package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.ActivationFormat;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.BF16Tensor;
import dev.parley.engine.tensor.F16Tensor;
import dev.parley.engine.tensor.F32Tensor;
import dev.parley.engine.tensor.Q4_0Tensor;
import dev.parley.engine.tensor.Q5_0Tensor;
import dev.parley.engine.tensor.Q5_1Tensor;
import dev.parley.engine.tensor.Q4_KTensor;
import dev.parley.engine.tensor.Q5_KTensor;
import dev.parley.engine.tensor.Q6_KTensor;
import dev.parley.engine.tensor.Q8KActivations;
import dev.parley.engine.tensor.Q8_0Tensor;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;

/**
 * The fast backend: Vector API kernels per tensor type, output rows split over a fixed pool of
 * {@code threads} threads (the caller is one of them). Weights are read straight from the mapping.
 */
public final class VectorBackend implements Backend {

    /** The system property that picks the vector width of the quantized kernels: 256 or 512. */
    public static final String BITS_PROPERTY = "parley.vector.bits";

    private final WorkerPool pool;
    private final boolean wide;
    /** The product being run: set by {@link #dispatch}, read by the pool's threads. */
    private final ParallelTask job = (from, to, thread) -> runJob(from, to);
    private final Tensor[] single = new Tensor[1];
    private final float[][] singleOut = new float[1][];
    private volatile Tensor[] jobWeights;
    private volatile Activations jobInput;
    private volatile float[][] jobOutputs;

    /** A backend whose kernels use {@link #defaultBits()}-bit vectors. */
    public VectorBackend(int threads) {
        this(threads, defaultBits());
    }

    /**
     * A backend whose Q8_0 kernels use {@code bits}-bit vectors (256 or 512). Both are correct on
     * every CPU; 512 is fast only where the CPU has AVX-512.
     */
    public VectorBackend(int threads, int bits) {
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        if (bits != 256 && bits != 512) {
            throw new IllegalArgumentException("expected a vector width of 256 or 512 bits but found " + bits);
        }
        this.wide = bits == 512;
        this.pool = new WorkerPool(threads, "parley-vector");
    }

    /**
     * The width from the system property {@value #BITS_PROPERTY} when set, else the CPU's preferred
     * vector width (512 with AVX-512, else 256).
     *
     * @throws IllegalArgumentException when the property holds something other than 256 or 512
     */
    public static int defaultBits() {
        String p = System.getProperty(BITS_PROPERTY);
        if (p == null || p.isBlank()) {
            return FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 512 ? 512 : 256;
        }
        try {
            int bits = Integer.parseInt(p.strip());
            if (bits == 256 || bits == 512) {
                return bits;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("expected -D" + BITS_PROPERTY + "=256 or 512 but found " + p);
    }

    /** The width of this backend's quantized kernels, in bits. */
    public int bits() {
        return wide ? 512 : 256;
    }

    @Override
    public BackendKind kind() { return BackendKind.VECTOR; }

    @Override
    public int threads() { return pool.threads(); }

    @Override
    public synchronized void matmul(Tensor w, Activations x, float[] out) {
        Backend.checkShapes(w, x, out);
        single[0] = w;
        prepare(single, x);
        singleOut[0] = out;
        dispatch(single, x, singleOut, units(w.rows()));
    }

    @Override
    public synchronized void matmul(Tensor[] ws, Activations x, float[][] outs) {
        if (ws.length != outs.length) {
            throw new IllegalArgumentException("expected one output per weight but found " + ws.length
                    + " weights and " + outs.length + " outputs");
        }
        int total = 0;
        for (int i = 0; i < ws.length; i++) {
            Backend.checkShapes(ws[i], x, outs[i]);
            if (ws[i].activationFormat() != ws[0].activationFormat()) {
                // Two rounded formats cannot be prepared at once: one dispatch per weight.
                Backend.super.matmul(ws, x, outs);
                return;
            }
            total += units(ws[i].rows());
        }
        prepare(ws, x);
        dispatch(ws, x, outs, total);
    }

    /**
     * Prepares the activations in the form the weights take, here on the dispatching thread: the paired quants of the
     * float prompt kernels too (Q4_K and Q5_K at both widths, Q6_K at 256 bits), so that no worker fills a shared
     * buffer.
     */
    private void prepare(Tensor[] ws, Activations x) {
        x.prepare(ws[0].activationFormat());
        if (x.count() >= 4) {
            for (Tensor w : ws) {
                if (w instanceof Q4_KTensor || w instanceof Q5_KTensor || !wide && w instanceof Q6_KTensor) {
                    x.q8k().preparePairedQuants();
                    return;
                }
            }
        }
    }

    /**
     * Rows are handed to the threads in units of {@value #UNIT} (one weight's last unit may be shorter), so that
     * two threads never write the same 64-byte line of an output row: no false sharing.
     */
    private static final int UNIT = 16;

    private static int units(int rows) {
        return (rows + UNIT - 1) / UNIT;
    }

    /**
     * Runs the rows of {@code ws} ({@code total} units of rows, one weight after another) on the
     * pool through the one reusable {@link #job}: nothing is allocated per product.
     */
    private synchronized void dispatch(Tensor[] ws, Activations x, float[][] outs, int total) {
        jobWeights = ws;
        jobInput = x;
        jobOutputs = outs;
        try {
            pool.parallelFor(total, job);
        } finally {
            jobWeights = null;
            jobInput = null;
            jobOutputs = null;
            single[0] = null;
            singleOut[0] = null;
        }
    }

    /** A chunk {@code [from, to)} of the row units of the current job; a chunk may span two weights. */
    private void runJob(int from, int to) {
        Tensor[] ws = jobWeights;
        float[][] outs = jobOutputs;
        int start = 0;
        for (int i = 0; i < ws.length && start < to; i++) {
            int rows = ws[i].rows();
            int n = units(rows);
            int lo = Math.max(from, start);
            int hi = Math.min(to, start + n);
            if (lo < hi) {
                rows(ws[i], jobInput, outs[i], (lo - start) * UNIT, Math.min(rows, (hi - start) * UNIT), wide);
            }
            start += n;
        }
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

    /** {@link Backend#swiGlu} with {@link VectorExp} (within 2 ulp of the reference's rounded exp). */
    @Override
    public void swiGlu(float[] gate, float[] up, int from, int to) {
        VectorKernels.swiGlu(gate, up, from, to);
    }

    /** Rows of a K-quant tile per pass over the token groups: 32 rows of 2048 columns are 36-44 KiB (the L2 holds them). */
    private static final int K_TILE = 32;

    /**
     * Q4_K or Q5_K rows {@code [from, to)} times {@code count >= 4} activation rows at 512 bits: in
     * tiles of {@value #K_TILE} rows, each group of four tokens passes over the tile two rows at a time
     * ({@code dotQ4_Kr2x4} / {@code dotQ5_Kr2x4}: each activation vector serves two rows, each unpacked weight vector
     * four tokens); an odd last row and the last {@code count % 4} tokens go through the two-token and one-token
     * kernels. Every kernel gives each (row, token) the same bits.
     */
    private static void kQuantTiles(GgmlType type, MemorySegment seg, long rowBytes, int rows, int blocks, Q8KActivations a,
                                    int count, float[] out, int from, int to) {
        float[] scratch = new float[32];
        int quads = count - count % 4;
        int pairs = quads + (count - quads) / 2 * 2;
        for (int r0 = from; r0 < to; r0 += K_TILE) {
            int r1 = Math.min(to, r0 + K_TILE);
            int even = r0 + (r1 - r0) / 2 * 2;
            for (int t = 0; t < quads; t += 4) {
                for (int r = r0; r < even; r += 2) {
                    switch (type) {
                        case Q4_K -> KQuantKernels512.dotQ4_Kr2x4(seg, r * rowBytes, rowBytes, blocks, a, t, out, rows, r, scratch);
                        case Q5_K -> KQuantKernels512.dotQ5_Kr2x4(seg, r * rowBytes, rowBytes, blocks, a, t, out, rows, r, scratch);
                        default -> throw notKQuant(type, "Q4_K or Q5_K (the 512-bit two-row kernels)");
                    }
                }
                for (int u = t; even < r1 && u < t + 4; u += 2) {
                    twoTokens(type, true, seg, even * rowBytes, blocks, a, u, out, rows, even);
                }
            }
            for (int r = r0; r < r1; r++) {
                for (int t = quads; t < pairs; t += 2) {
                    twoTokens(type, true, seg, r * rowBytes, blocks, a, t, out, rows, r);
                }
                for (int t = pairs; t < count; t++) {
                    out[t * rows + r] = oneToken(type, true, seg, r * rowBytes, blocks, a, t);
                }
            }
        }
    }

    /**
     * K-quant rows {@code [from, to)} times {@code count} activation rows with the two-token and one-token kernels, in
     * tiles of {@value #K_TILE} rows: every token pair passes over a tile (in the L2) while its activations stay in the
     * L1. Row by row, a 128-token prompt of 2048 columns read 512 KiB of activations from beyond the L2 for every row.
     * Each (row, token) gets the same bits whatever the order.
     */
    private static void kQuantPairTiles(GgmlType type, boolean wide, MemorySegment seg, long rowBytes, int rows,
                                        int blocks, Q8KActivations a, int count, float[] out, int from, int to) {
        int pairs = count - count % 2;
        for (int r0 = from; r0 < to; r0 += K_TILE) {
            int r1 = Math.min(to, r0 + K_TILE);
            for (int t = 0; t < pairs; t += 2) {
                for (int r = r0; r < r1; r++) {
                    twoTokens(type, wide, seg, r * rowBytes, blocks, a, t, out, rows, r);
                }
            }
            for (int r = r0; r < r1; r++) {
                for (int t = pairs; t < count; t++) {
                    out[t * rows + r] = oneToken(type, wide, seg, r * rowBytes, blocks, a, t);
                }
            }
        }
    }

    /**
     * Q4_K, Q5_K or Q6_K rows {@code [from, to)} times {@code count >= 4} activation rows at 256 bits, in tiles of
     * {@value #K_TILE} rows: each group of four tokens passes over the tile ({@code KQuantKernels.dotQ4_Kx4}, {@code
     * dotQ5_Kx4}, {@code dotQ6_Kx4}, in float: each unpacked weight vector serves the four), the last {@code count % 4}
     * tokens go through the two-token and one-token kernels. Every kernel gives each (row, token) the same bits.
     * (Eight tokens at once took C2 past what it compiles: 100 times slower.)
     */
    private static void kQuantQuadTiles(GgmlType type, MemorySegment seg, long rowBytes, int rows, int blocks,
                                        Q8KActivations a, int count, float[] out, int from, int to) {
        float[] scratch = new float[16];
        int quads = count - count % 4;
        int pairs = quads + (count - quads) / 2 * 2;
        for (int r0 = from; r0 < to; r0 += K_TILE) {
            int r1 = Math.min(to, r0 + K_TILE);
            for (int t = 0; t < quads; t += 4) {
                for (int r = r0; r < r1; r++) {
                    switch (type) {
                        case Q4_K -> KQuantKernels.dotQ4_Kx4(seg, r * rowBytes, blocks, a, t, out, rows, r, scratch);
                        case Q5_K -> KQuantKernels.dotQ5_Kx4(seg, r * rowBytes, blocks, a, t, out, rows, r, scratch);
                        case Q6_K -> KQuantKernels.dotQ6_Kx4(seg, r * rowBytes, blocks, a, t, out, rows, r, scratch);
                        default -> throw notKQuant(type, "Q4_K, Q5_K or Q6_K (the 256-bit four-token kernels)");
                    }
                }
            }
            for (int r = r0; r < r1; r++) {
                for (int t = quads; t < pairs; t += 2) {
                    twoTokens(type, false, seg, r * rowBytes, blocks, a, t, out, rows, r);
                }
                for (int t = pairs; t < count; t++) {
                    out[t * rows + r] = oneToken(type, false, seg, r * rowBytes, blocks, a, t);
                }
            }
        }
    }

    /** The two-token kernel of K-quant {@code type} at 512 bits ({@code wide}) or 256: tokens {@code t, t + 1}. */
    private static void twoTokens(GgmlType type, boolean wide, MemorySegment seg, long base, int blocks,
                                  Q8KActivations a, int t, float[] out, int rows, int r) {
        switch (type) {
            case Q4_K -> {
                if (wide) {
                    KQuantKernels512.dotQ4_Kx2(seg, base, blocks, a, t, out, rows, r);
                } else {
                    KQuantKernels.dotQ4_Kx2(seg, base, blocks, a, t, out, rows, r);
                }
            }
            case Q5_K -> {
                if (wide) {
                    KQuantKernels512.dotQ5_Kx2(seg, base, blocks, a, t, out, rows, r);
                } else {
                    KQuantKernels.dotQ5_Kx2(seg, base, blocks, a, t, out, rows, r);
                }
            }
            case Q6_K -> {
                if (wide) {
                    KQuantKernels512.dotQ6_Kx2(seg, base, blocks, a, t, out, rows, r);
                } else {
                    KQuantKernels.dotQ6_Kx2(seg, base, blocks, a, t, out, rows, r);
                }
            }
            default -> throw notKQuant(type, "Q4_K, Q5_K or Q6_K");
        }
    }

    /** The one-token kernel of K-quant {@code type} at 512 bits ({@code wide}) or 256: token {@code t}. */
    private static float oneToken(GgmlType type, boolean wide, MemorySegment seg, long base, int blocks,
                                  Q8KActivations a, int t) {
        return switch (type) {
            case Q4_K -> wide ? KQuantKernels512.dotQ4_K(seg, base, blocks, a, t) : KQuantKernels.dotQ4_K(seg, base, blocks, a, t);
            case Q5_K -> wide ? KQuantKernels512.dotQ5_K(seg, base, blocks, a, t) : KQuantKernels.dotQ5_K(seg, base, blocks, a, t);
            case Q6_K -> wide ? KQuantKernels512.dotQ6_K(seg, base, blocks, a, t) : KQuantKernels.dotQ6_K(seg, base, blocks, a, t);
            default -> throw notKQuant(type, "Q4_K, Q5_K or Q6_K");
        };
    }

    private static IllegalArgumentException notKQuant(GgmlType type, String expected) {
        return new IllegalArgumentException("expected " + expected + " but found " + type);
    }

    private static void rows(Tensor w, Activations x, float[] out, int from, int to, boolean wide) {
        MemorySegment seg = w.data();
        long rowBytes = w.rowBytes();
        int rows = w.rows();
        int cols = w.cols();
        int count = x.count();
        int dim = x.dim();
        switch (w) {
            case Q8_0Tensor q -> q8_0Rows(seg, rowBytes, rows, cols / Activations.BLOCK, x, out, from, to, wide);
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
            case Q5_0Tensor q -> {
                short[] qs = x.wideQuants();
                float[] sc = x.scales();
                int blocks = cols / Activations.BLOCK;
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotQ5_0(seg, r * rowBytes, blocks, qs, t * dim, sc, t * blocks);
                    }
                }
            }
            case Q5_1Tensor q -> {
                short[] qs = x.wideQuants();
                float[] sc = x.scales();
                float[] bs = x.blockSums();
                int blocks = cols / Activations.BLOCK;
                for (int r = from; r < to; r++) {
                    for (int t = 0; t < count; t++) {
                        out[t * rows + r] = VectorKernels.dotQ5_1(seg, r * rowBytes, blocks, qs, t * dim, sc, bs, t * blocks);
                    }
                }
            }
            case Q4_KTensor q -> {
                Q8KActivations a = x.q8k();
                int blocks = cols / Q8KActivations.BLOCK;
                if (wide && count >= 4) {
                    kQuantTiles(GgmlType.Q4_K, seg, rowBytes, rows, blocks, a, count, out, from, to);
                    return;
                }
                if (count >= 4) {
                    kQuantQuadTiles(GgmlType.Q4_K, seg, rowBytes, rows, blocks, a, count, out, from, to);
                    return;
                }
                kQuantPairTiles(GgmlType.Q4_K, wide, seg, rowBytes, rows, blocks, a, count, out, from, to);
            }
            case Q5_KTensor q -> {
                Q8KActivations a = x.q8k();
                int blocks = cols / Q8KActivations.BLOCK;
                if (wide && count >= 4) {
                    kQuantTiles(GgmlType.Q5_K, seg, rowBytes, rows, blocks, a, count, out, from, to);
                    return;
                }
                if (count >= 4) {
                    kQuantQuadTiles(GgmlType.Q5_K, seg, rowBytes, rows, blocks, a, count, out, from, to);
                    return;
                }
                kQuantPairTiles(GgmlType.Q5_K, wide, seg, rowBytes, rows, blocks, a, count, out, from, to);
            }
            case Q6_KTensor q -> {
                Q8KActivations a = x.q8k();
                if (!wide && count >= 4) {
                    kQuantQuadTiles(GgmlType.Q6_K, seg, rowBytes, rows, cols / Q8KActivations.BLOCK, a, count, out, from, to);
                    return;
                }
                kQuantPairTiles(GgmlType.Q6_K, wide, seg, rowBytes, rows, cols / Q8KActivations.BLOCK, a, count, out,
                        from, to);
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

    private static void q8_0Rows(MemorySegment seg, long rowBytes, int rows, int blocks, Activations x, float[] out,
                                 int from, int to, boolean wide) {
        if (wide) {
            q8_0RowsFloat(seg, rowBytes, rows, blocks, x, out, from, to);
            return;
        }
        int count = x.count();
        int dim = x.dim();
        short[] qs = x.wideQuants();
        float[] sc = x.scales();
        int pairs = count - count % 2;
        // Tiles of Q8_TILE rows (in the L2), each pair of tokens passing over the tile two rows at a time, so that a
        // widened weight vector serves two tokens and an activation vector two rows; an odd last token (decode's
        // only one) one row at a time: two rows per pass measured faster from the L2 but up to 25% slower on a
        // whole model's decode, whose weights come from memory (Zen 3, session 35).
        for (int r0 = from; r0 < to; r0 += Q8_TILE) {
            int r1 = Math.min(to, r0 + Q8_TILE);
            int even = r0 + (r1 - r0) / 2 * 2;
            for (int t = 0; t < pairs; t += 2) {
                for (int r = r0; r < even; r += 2) {
                    VectorKernels.dotQ8_0r2x2(seg, r * rowBytes, rowBytes, blocks, qs, dim, t, sc, out, rows, r);
                }
                if (even < r1) {
                    VectorKernels.dotQ8_0x2(seg, even * rowBytes, blocks, qs, dim, t, sc, out, rows, even);
                }
            }
            for (int r = r0; r < r1; r++) {
                for (int t = pairs; t < count; t++) {
                    out[t * rows + r] = VectorKernels.dotQ8_0(seg, r * rowBytes, blocks, qs, t * dim, sc, t * blocks);
                }
            }
        }
    }

    /** Rows of a 256-bit Q8_0 tile per pass over the token pairs (32 rows of 4864 columns are 165 KiB: the L2 holds them). */
    private static final int Q8_TILE = 32;

    /** 512 bits: the register-blocked tiles of {@link Q8TiledProduct}. */
    private static void q8_0RowsFloat(MemorySegment seg, long rowBytes, int rows, int blocks, Activations x,
                                      float[] out, int from, int to) {
        Q8TiledProduct.rows(seg, rowBytes, rows, blocks, x.dequantizedQuants(), x.dim(), x.count(), out, from, to);
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "vector" + bits() + " x" + threads();
    }
}
