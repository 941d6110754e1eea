package dev.parley.engine.backend.cuda;

import dev.parley.engine.model.Configuration;

/**
 * The sizes of everything the CUDA model keeps on the device for a configuration, in plain Java so that tests can
 * check them without a GPU: the activation buffers of a step of up to {@code maxRows} rows, and a paged KV cache of
 * {@code kvBlocks} blocks of {@code blockSize} positions (FP16 keys and values, per layer).
 *
 * @param config    the model
 * @param maxRows   rows (tokens of all sequences together) one step may hold
 * @param kvBlocks  blocks in the KV pool
 * @param blockSize positions per block
 */
public record DevicePlan(Configuration config, int maxRows, int kvBlocks, int blockSize) {

    /** The largest number of rows a step may have (the matmul grids' y limit allows far more). */
    public static final int ROW_LIMIT = 4096;
    /** Positions per KV block, as the CPU's paged cache. */
    public static final int BLOCK_SIZE = 16;

    public DevicePlan {
        if (maxRows < 1 || maxRows > ROW_LIMIT) {
            throw new IllegalArgumentException("expected 1 to " + ROW_LIMIT + " rows per step but found " + maxRows);
        }
        if (kvBlocks < 1 || blockSize < 1) {
            throw new IllegalArgumentException("expected at least one KV block of at least one position but found "
                    + kvBlocks + " of " + blockSize);
        }
        if (config.headSize() > KernelGrids.MAX_HEAD) {
            throw new IllegalArgumentException("expected a head size of at most " + KernelGrids.MAX_HEAD
                    + " for the CUDA attention but found " + config.headSize());
        }
        for (int width : new int[] {config.dim(), config.qDim(), config.ffnDim()}) {
            if (width % KernelGrids.QK != 0) {
                throw new IllegalArgumentException("expected the embedding, attention and feed-forward widths to be"
                        + " multiples of 32 for the GPU's Q8_0 products but found " + config.dim() + ", " + config.qDim()
                        + ", " + config.ffnDim());
            }
        }
    }

    /** Floats per row of the fused Q/K/V projection: the query heads, then the key heads, then the value heads. */
    public int qkvWidth() {
        return config.qDim() + 2 * config.kvDim();
    }

    /** Floats per row of the fused gate/up projection. */
    public int gateUpWidth() {
        return 2 * config.ffnDim();
    }

    /** The widest input of a matrix product (what the quantized activation buffer must hold per row). */
    public int maxInput() {
        return Math.max(config.dim(), Math.max(config.qDim(), config.ffnDim()));
    }

    /** Positions the KV pool holds in all. */
    public long kvPositions() {
        return (long) kvBlocks * blockSize;
    }

    /** Bytes of keys (or of values) of one layer: FP16 rows of kvDim per position. */
    public long kvLayerBytes() {
        return kvPositions() * config.kvDim() * 2;
    }

    /** Bytes of the whole KV cache, keys and values of every layer. */
    public long kvBytes() {
        return 2 * kvLayerBytes() * config.layers();
    }

    /** Bytes of one float buffer of {@code width} values per row for every row. */
    public long rowsBytes(int width) {
        return (long) maxRows * width * 4;
    }

    /** Bytes of the step's activation buffers (residual, norms, projections, quantized inputs, logits, indices). */
    public long activationBytes() {
        Configuration c = config;
        long floats = 4L * c.dim()          // x, xb, proj, gathered
                + qkvWidth() + c.qDim()     // qkv, attention output
                + gateUpWidth() + c.ffnDim() // gate/up, SwiGLU output
                + c.vocabSize();            // logits
        long quant = (long) maxRows * maxInput() + (long) maxRows * (maxInput() / KernelGrids.QK) * 4;
        long ints = 4L * (5L * maxRows + kvBlocks + 1); // tokens, positions, kv rows, table starts, logit rows; tables
        return floats * maxRows * 4 + quant + ints + 4L * maxRows; // + argmax results
    }

    /**
     * Blocks of {@code blockSize} positions that fit into {@code budgetBytes} of device memory.
     *
     * @return at least 0
     */
    public static int kvBlocksFitting(Configuration config, long budgetBytes, int blockSize) {
        long perBlock = 2L * blockSize * config.kvDim() * 2 * config.layers();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, budgetBytes / perBlock));
    }
}
