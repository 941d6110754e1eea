package dev.parley.engine.backend.cuda;

/**
 * The launch grids of the kernels, in plain Java so that tests can check them without a GPU. The constants mirror
 * the {@code #define}s of the CUDA sources; each method documents which outputs one thread block covers.
 */
public final class KernelGrids {

    /** Weight rows per thread block of {@code mmv_q8} (one warp each). */
    public static final int MMV_ROWS = 4;
    /** Activation rows per thread block of {@code mmv_q8}. */
    public static final int MMV_TOKENS = 8;
    /** Weight rows per tile of {@code mmq_q8}. */
    public static final int MMQ_ROWS = 64;
    /** Activation rows per tile of {@code mmq_q8}. */
    public static final int MMQ_TOKENS = 32;
    /** Up to this many activation rows the matrix x vector kernel runs; above, the tiled one. */
    public static final int MMV_MAX_COUNT = 8;
    /** The largest head the attention kernel holds ({@code MAX_HEAD}). */
    public static final int MAX_HEAD = 256;
    /** Values per Q8_0 block. */
    public static final int QK = 32;

    private static final int THREADS = 256;

    private KernelGrids() {
    }

    /** Which matmul kernel computes {@code count} activation rows. */
    public static Kernel matmulKernel(int count) {
        return count <= MMV_MAX_COUNT ? Kernel.MMV_Q8 : Kernel.MMQ_Q8;
    }

    /** {@code mmv_q8} or {@code mmq_q8} for a matrix of {@code rows} and {@code count} activation rows. */
    public static LaunchGrid matmul(int rows, int count) {
        positive(rows, "rows");
        positive(count, "count");
        if (matmulKernel(count) == Kernel.MMV_Q8) {
            return new LaunchGrid(ceil(rows, MMV_ROWS), ceil(count, MMV_TOKENS), 32 * MMV_ROWS, 0);
        }
        return new LaunchGrid(ceil(rows, MMQ_ROWS), ceil(count, MMQ_TOKENS), THREADS, 0);
    }

    /** {@code quantize_q8}: one warp per block of 32 values. */
    public static LaunchGrid quantize(int values) {
        positive(values, "values");
        if (values % QK != 0) {
            throw new IllegalArgumentException("expected a multiple of 32 values to quantize but found " + values);
        }
        return new LaunchGrid(ceil(values, THREADS), 1, THREADS, 0);
    }

    /** One thread block per row: {@code embed_q8}, {@code rms_norm}, {@code gather_rows}, {@code kv_store}. */
    public static LaunchGrid perRow(int count) {
        positive(count, "count");
        return new LaunchGrid(count, 1, THREADS, 0);
    }

    /** {@code add_inplace}: one thread per value. */
    public static LaunchGrid perValue(int n) {
        positive(n, "values");
        return new LaunchGrid(ceil(n, THREADS), 1, THREADS, 0);
    }

    /** {@code add_bias}, {@code silu_mul}: x over {@code width} values, y over rows. */
    public static LaunchGrid perValueOfRows(int width, int count) {
        positive(width, "width");
        positive(count, "count");
        return new LaunchGrid(ceil(width, THREADS), count, THREADS, 0);
    }

    /** {@code rope}: one block per (row, head), one thread per rotated pair. */
    public static LaunchGrid rope(int count, int heads, int pairs) {
        positive(count, "count");
        positive(heads, "heads");
        if (pairs < 1 || pairs > 1024) {
            throw new IllegalArgumentException("expected 1 to 1024 RoPE pairs but found " + pairs);
        }
        return new LaunchGrid(count, heads, ceil(pairs, 32) * 32, 0);
    }

    /** {@code attention}: one block of four warps per (row, query head). */
    public static LaunchGrid attention(int count, int heads, int headSize) {
        positive(count, "count");
        positive(heads, "heads");
        if (headSize < 1 || headSize > MAX_HEAD) {
            throw new IllegalArgumentException("expected a head size of 1 to " + MAX_HEAD + " for the CUDA attention but found "
                    + headSize);
        }
        return new LaunchGrid(count, heads, 128, 0);
    }

    /** {@code argmax_rows}, {@code softmax_rows}: one block of 256 threads per row (the kernels assume 256). */
    public static LaunchGrid sampling(int rows) {
        return perRow(rows);
    }

    static int ceil(int a, int b) {
        return (a + b - 1) / b;
    }

    private static void positive(int n, String what) {
        if (n < 1) {
            throw new IllegalArgumentException("expected at least 1 for " + what + " but found " + n);
        }
    }
}
