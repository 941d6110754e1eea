package dev.parley.engine.tensor;

/**
 * A batch of {@code count} activation rows of length {@code dim} plus the forms llama.cpp converts
 * them to before a matrix multiplication, computed lazily once per {@link #set} and shared by all
 * weights that read the same input (Q/K/V, gate/up).
 *
 * <p>Q8_0 form: per block of 32 values, {@code d = amax / 127} rounded to FP16 and
 * {@code q = round(x * 127 / amax)} (round half to even, like ggml's AVX2 {@code quantize_row_q8_0}).
 * F16/BF16 form: each value rounded to nearest even in that format, kept as float.
 *
 * <p>Not thread-safe while being prepared; read-only afterwards, so worker threads may share it.
 */
public final class Activations {

    public static final int BLOCK = 32;

    private final int maxCount;
    private final int maxDim;
    private float[] raw;
    private int count;
    private int dim;
    private final float[] rounded;
    private ActivationFormat roundedFormat;
    private final byte[] quants;
    private final short[] wideQuants;
    private final float[] dequantized;
    private final float[] scales;
    private final float[] blockSums;
    private boolean quantized;
    private final Q8KActivations kQuants;

    /** Buffers for up to {@code maxCount} rows of up to {@code maxDim} values. */
    public Activations(int maxCount, int maxDim) {
        this.maxCount = maxCount;
        this.maxDim = maxDim;
        int n = Math.multiplyExact(maxCount, maxDim);
        this.rounded = new float[n];
        this.quants = new byte[n];
        this.wideQuants = new short[n];
        this.dequantized = new float[n];
        this.scales = new float[(n + BLOCK - 1) / BLOCK + maxCount];
        this.blockSums = new float[(n + BLOCK - 1) / BLOCK + maxCount];
        this.kQuants = new Q8KActivations(maxCount, maxDim);
    }

    /** Uses {@code x[0 .. count*dim)} (row-major) as the input; the array is read, not copied. */
    public Activations set(float[] x, int count, int dim) {
        if (count > maxCount || dim > maxDim || count <= 0 || dim <= 0 || x.length < count * dim) {
            throw new IllegalArgumentException("expected up to " + maxCount + " rows of up to " + maxDim
                    + " values but found " + count + " x " + dim + " in an array of " + x.length);
        }
        this.raw = x;
        this.count = count;
        this.dim = dim;
        this.roundedFormat = null;
        this.quantized = false;
        this.kQuants.invalidate();
        return this;
    }

    public int count() { return count; }

    public int dim() { return dim; }

    /** The unrounded input. */
    public float[] raw() { return raw; }

    /** Prepares the form {@code format} (a no-op when already prepared). */
    public void prepare(ActivationFormat format) {
        switch (format) {
            case F32 -> { }
            case F16, BF16 -> {
                if (roundedFormat != format) {
                    round(format);
                }
            }
            case Q8_0 -> {
                if (!quantized) {
                    quantize();
                }
            }
            case Q8_K -> kQuants.prepare(raw, count, dim);
        }
    }

    /** The Q8_K form (after {@link #prepare} with {@link ActivationFormat#Q8_K}). */
    public Q8KActivations q8k() {
        return kQuants.checkReady();
    }

    /** Values rounded to F16 or BF16 (after {@link #prepare}); row t starts at {@code t * dim}. */
    public float[] rounded(ActivationFormat format) {
        if (roundedFormat != format) {
            throw new IllegalStateException("expected activations prepared as " + format + " but found " + roundedFormat);
        }
        return rounded;
    }

    /** Q8_0 quants (after {@link #prepare}); row t starts at {@code t * dim}. */
    public byte[] quants() {
        checkQuantized();
        return quants;
    }

    /** The Q8_0 quants widened to shorts, for kernels that multiply in 16 bits. */
    public short[] wideQuants() {
        checkQuantized();
        return wideQuants;
    }

    /**
     * The Q8_0 values as floats, {@code q * d} (exact in float), for kernels that multiply in float.
     */
    public float[] dequantizedQuants() {
        checkQuantized();
        return dequantized;
    }

    /** Q8_0 block scales (after {@link #prepare}); row t's block b is at {@code t * (dim / 32) + b}. */
    public float[] scales() {
        checkQuantized();
        return scales;
    }

    /**
     * Per Q8_0 block, {@code s = d * sum(q)} rounded to FP16 (with the unrounded {@code d}): the extra field of ggml's
     * Q8_1, which Q5_1 weights meet (same quants and scale as Q8_0); index as {@link #scales}.
     */
    public float[] blockSums() {
        checkQuantized();
        return blockSums;
    }

    private void checkQuantized() {
        if (!quantized) {
            throw new IllegalStateException("expected activations prepared as Q8_0 but they were not");
        }
    }

    private void round(ActivationFormat format) {
        int n = count * dim;
        if (format == ActivationFormat.F16) {
            for (int i = 0; i < n; i++) {
                rounded[i] = Float.float16ToFloat(Float.floatToFloat16(raw[i]));
            }
        } else {
            for (int i = 0; i < n; i++) {
                rounded[i] = Bf16.toFloat(Bf16.fromFloat(raw[i]));
            }
        }
        roundedFormat = format;
    }

    /**
     * The definition (and the scalar reference): {@code d = amax / 127}, the scale rounded to FP16, each
     * {@code q = (byte) Math.rint(x * 127 / amax)}; {@link ActivationQuantizer} computes the same bits with vectors.
     */
    static void quantizeScalar(float[] raw, int count, int dim, byte[] quants, short[] wideQuants,
                               float[] dequantized, float[] scales) {
        int blocks = dim / BLOCK;
        for (int t = 0; t < count; t++) {
            for (int b = 0; b < blocks; b++) {
                int base = t * dim + b * BLOCK;
                float amax = 0f;
                for (int j = 0; j < BLOCK; j++) {
                    amax = Math.max(amax, Math.abs(raw[base + j]));
                }
                float d = amax / 127f;
                float id = amax != 0f ? 127f / amax : 0f;
                scales[t * blocks + b] = Float.float16ToFloat(Float.floatToFloat16(d));
                float sd = scales[t * blocks + b];
                for (int j = 0; j < BLOCK; j++) {
                    byte q = (byte) Math.rint(raw[base + j] * id);
                    quants[base + j] = q;
                    wideQuants[base + j] = q;
                    dequantized[base + j] = q * sd;
                }
            }
        }
    }

    /**
     * Q8_1's block sums beside the Q8_0 quants (for Q5_1 weights): {@code d * sum(q)} rounded to FP16, with the
     * unrounded {@code d = amax / 127} as ggml's quantize_row_q8_1.
     */
    private void sumBlocks() {
        int blocks = dim / BLOCK;
        for (int t = 0; t < count; t++) {
            for (int b = 0; b < blocks; b++) {
                int base = t * dim + b * BLOCK;
                float amax = 0f;
                int sum = 0;
                for (int j = 0; j < BLOCK; j++) {
                    amax = Math.max(amax, Math.abs(raw[base + j]));
                    sum += quants[base + j];
                }
                blockSums[t * blocks + b] = Float.float16ToFloat(Float.floatToFloat16(amax / 127f * sum));
            }
        }
    }

    private void quantize() {
        if (dim % BLOCK != 0) {
            throw new IllegalStateException("expected a row length that is a multiple of 32 for Q8_0 but found " + dim);
        }
        ActivationQuantizer.quantize(raw, count, dim, quants, wideQuants, dequantized, scales);
        sumBlocks();
        quantized = true;
    }
}
