package dev.parley.engine.tensor;

/**
 * Activation rows quantized to Q8_K, the form llama.cpp gives the input of every K-quant matrix product
 * ({@code quantize_row_q8_K_ref} in ggml-quants.c): per block of {@value #BLOCK} values, {@code max} is the value
 * of largest magnitude (the first one on ties), {@code iscale = -127 / max}, {@code q = min(127, rint(iscale * x))}
 * (round half to even, as ggml's {@code nearest_int}), the float scale is {@code 1 / iscale}, and {@code bsums}
 * holds the sum of each 16 consecutive quants. An all-zero block has scale 0 and zero quants. NaN values count as
 * zero; a block whose largest value is subnormal (so that {@code iscale} overflows) gets scale 0 (ggml's result there
 * is undefined).
 *
 * <p>The buffers are allocated on first use, so a model without K-quant matrices pays nothing.
 */
public final class Q8KActivations {

    public static final int BLOCK = 256;
    /** Values per partial sum. */
    public static final int SUM_GROUP = 16;

    private final int maxCount;
    private final int maxDim;
    private byte[] quants;
    private short[] wideQuants;
    private float[] scales;
    private int[] bsums;
    private float[] pairedQuants;
    private boolean paired;
    private int count;
    private boolean ready;
    private int dim;

    Q8KActivations(int maxCount, int maxDim) {
        this.maxCount = maxCount;
        this.maxDim = maxDim;
    }

    void invalidate() {
        ready = false;
        paired = false;
    }

    Q8KActivations checkReady() {
        if (!ready) {
            throw new IllegalStateException("expected activations prepared as Q8_K but they were not");
        }
        return this;
    }

    void prepare(float[] raw, int count, int dim) {
        if (ready) {
            return;
        }
        if (dim % BLOCK != 0) {
            throw new IllegalStateException("expected a row length that is a multiple of 256 for Q8_K but found " + dim);
        }
        if (quants == null) {
            int n = Math.multiplyExact(maxCount, maxDim);
            quants = new byte[n];
            wideQuants = new short[n];
            scales = new float[n / BLOCK + maxCount];
            bsums = new int[n / SUM_GROUP + maxCount];
        }
        this.dim = dim;
        this.count = count;
        int blocks = dim / BLOCK;
        for (int t = 0; t < count; t++) {
            for (int b = 0; b < blocks; b++) {
                quantizeBlock(raw, t * dim + b * BLOCK, t * blocks + b);
            }
        }
        ready = true;
    }

    private void quantizeBlock(float[] x, int base, int block) {
        float amax = 0f;
        float max = 0f;
        for (int j = 0; j < BLOCK; j++) {
            float ax = Math.abs(x[base + j]);
            if (amax < ax) {
                amax = ax;
                max = x[base + j];
            }
        }
        int sumBase = block * (BLOCK / SUM_GROUP);
        if (amax == 0f) {
            scales[block] = 0f;
            for (int j = 0; j < BLOCK; j++) {
                quants[base + j] = 0;
                wideQuants[base + j] = 0;
            }
            for (int g = 0; g < BLOCK / SUM_GROUP; g++) {
                bsums[sumBase + g] = 0;
            }
            return;
        }
        float iscale = -127f / max;
        for (int g = 0; g < BLOCK / SUM_GROUP; g++) {
            int sum = 0;
            for (int j = g * SUM_GROUP; j < (g + 1) * SUM_GROUP; j++) {
                // ggml clamps at 127 only; -127 is the least a finite block reaches, and the clamp keeps a block of
                // subnormal values (iscale overflows to infinity) from wrapping around in the byte.
                int q = Math.max(-127, Math.min(127, (int) Math.rint(iscale * x[base + j])));
                quants[base + j] = (byte) q;
                wideQuants[base + j] = (short) q;
                sum += q;
            }
            bsums[sumBase + g] = sum;
        }
        scales[block] = 1f / iscale;
    }

    /** Row length the quants were made for. */
    public int dim() { return dim; }

    /** Quants; row t starts at {@code t * dim}. */
    public byte[] quants() { return quants; }

    /** The quants widened to shorts, for kernels that multiply in 16 bits. */
    public short[] wideQuants() { return wideQuants; }

    /** Block scales; row t's block b is at {@code t * (dim / 256) + b}. */
    public float[] scales() { return scales; }

    /**
     * Makes {@link #pairedQuants} (once after each {@link #prepare}). Not thread-safe: call it on the dispatching
     * thread, before the workers read the array (a lazy fill from the workers raced: one worker could read the array
     * another had just allocated and not yet filled).
     */
    public void preparePairedQuants() {
        checkReady();
        if (paired) {
            return;
        }
        if (pairedQuants == null) {
            pairedQuants = new float[quants.length];
        }
        int n = count * dim;
        for (int o = 0; o < n; o += 32) {
            for (int i = 0; i < 16; i++) {
                pairedQuants[o + i] = quants[o + 2 * i];
                pairedQuants[o + 16 + i] = quants[o + 2 * i + 1];
            }
        }
        paired = true;
    }

    /**
     * The quants as floats, each run of 32 deinterleaved: positions {@code 32k .. 32k+15} hold quants
     * {@code 32k, 32k+2, .., 32k+30}, positions {@code 32k+16 .. 32k+31} quants {@code 32k+1, .., 32k+31}; row t starts at
     * {@code t * dim}. For float kernels that keep, in lane i, the sum of the products of quants 2i and 2i + 1, as the
     * integer kernels' pair sums do. Made by {@link #preparePairedQuants}.
     */
    public float[] pairedQuants() {
        if (!ready || !paired) {
            throw new IllegalStateException("expected paired Q8_K quants prepared but they were not");
        }
        return pairedQuants;
    }

    /** Sums of 16 quants; row t's block b's group g is at {@code (t * (dim / 256) + b) * 16 + g}. */
    public int[] bsums() { return bsums; }
}
