package dev.parley.engine.backend.cuda;

/**
 * How the CUDA model sizes its device memory.
 *
 * @param maxRows     rows (tokens of all sequences together) per step, 1 to {@link DevicePlan#ROW_LIMIT}
 * @param kvPositions positions of the paged KV cache in all (rounded up to whole blocks), or 0 for as many as
 *                    {@link #AUTO_POSITIONS} and 80% of the free memory after the weights allow
 */
public record CudaOptions(int maxRows, int kvPositions) {

    /** The most positions an automatic KV cache takes. */
    public static final int AUTO_POSITIONS = 131_072;

    public CudaOptions {
        if (maxRows < 1 || maxRows > DevicePlan.ROW_LIMIT) {
            throw new IllegalArgumentException("expected 1 to " + DevicePlan.ROW_LIMIT + " rows per step but found "
                    + maxRows);
        }
        if (kvPositions < 0) {
            throw new IllegalArgumentException("expected 0 (automatic) or more KV positions but found " + kvPositions);
        }
    }

    /** 256 rows per step and an automatic KV cache. */
    public static CudaOptions defaults() {
        return new CudaOptions(256, 0);
    }

    /**
     * The KV blocks to allocate for {@code config}, given {@code freeBytes} of device memory after the weights and
     * activations.
     *
     * @throws IllegalStateException when not even one block fits
     */
    public int kvBlocks(dev.parley.engine.model.Configuration config, long freeBytes) {
        int bs = DevicePlan.BLOCK_SIZE;
        int fitting = DevicePlan.kvBlocksFitting(config, (long) (freeBytes * 0.8), bs);
        int wanted = kvPositions > 0 ? (kvPositions + bs - 1) / bs : (AUTO_POSITIONS + bs - 1) / bs;
        int blocks = kvPositions > 0 ? wanted : Math.min(wanted, fitting);
        if (blocks < 1 || (kvPositions > 0 && blocks > DevicePlan.kvBlocksFitting(config, freeBytes, bs))) {
            throw new IllegalStateException("GPU memory: expected room for a KV cache of " + Math.max(1, blocks) * bs
                    + " positions but found " + freeBytes + " bytes free after the weights");
        }
        return blocks;
    }
}
