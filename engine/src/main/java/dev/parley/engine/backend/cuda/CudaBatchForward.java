package dev.parley.engine.backend.cuda;

import dev.parley.engine.model.BatchForward;
import dev.parley.engine.model.StepBatch;

/**
 * The batcher's {@link BatchForward} on a {@link CudaModel}: its pool of {@code blocks} logical blocks is carved out of
 * the model's device KV pool when it is created (each logical block of {@code blockSize} positions is
 * {@code blockSize / 16} device blocks) and given back on {@link #close}. A step's rows, positions and block tables
 * are translated into a {@link StepPlan} and run in one device step; the wanted logits come back in one copy.
 */
public final class CudaBatchForward implements BatchForward {

    private final CudaModel model;
    private final int blockSize;
    private final int blocks;
    private final int perLogical;
    private final int maxRows;
    private final int[] physical; // device block ids; logical block b is physical[b * perLogical .. + perLogical)
    private boolean closed;

    /**
     * Takes {@code blocks * blockSize / 16} device blocks from {@code model}'s pool.
     *
     * Steps hold at most {@code maxRows} rows, or the model's rows per step when that is fewer.
     *
     * @throws IllegalArgumentException when {@code blockSize} is not a multiple of the device's 16 positions, or the
     *                                  device pool has fewer free blocks than needed (the message says how many)
     */
    public CudaBatchForward(CudaModel model, int maxRows, int blockSize, int blocks) {
        int device = model.plan().blockSize();
        if (blockSize < 1 || blockSize % device != 0) {
            throw new IllegalArgumentException("expected a KV block size that is a multiple of the GPU's " + device
                    + " positions but found " + blockSize);
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("expected at least 1 row per step but found " + maxRows);
        }
        this.perLogical = blockSize / device;
        long need = (long) blocks * perLogical;
        if (blocks < 1 || need > model.blocks().available()) {
            throw new IllegalArgumentException("GPU KV cache: expected " + need + " free blocks of " + device
                    + " positions for " + blocks + " blocks of " + blockSize + " but found " + model.blocks().available()
                    + " (of " + model.blocks().capacity() + "): lower the KV memory budget");
        }
        this.model = model;
        this.blockSize = blockSize;
        this.blocks = blocks;
        this.maxRows = Math.min(maxRows, model.plan().maxRows());
        this.physical = new int[(int) need];
        for (int i = 0; i < physical.length; i++) {
            physical[i] = model.blocks().allocate();
        }
    }

    @Override
    public int blockSize() { return blockSize; }

    @Override
    public int blocks() { return blocks; }

    @Override
    public long bytesPerBlock() {
        return 2L * blockSize * model.config().kvDim() * 2 * model.config().layers();
    }

    @Override
    public int maxRows() { return maxRows; }

    @Override
    public int vocabSize() { return model.config().vocabSize(); }

    @Override
    public void forward(StepBatch batch, float[] logits) {
        int rows = batch.rows();
        if (rows > maxRows) {
            throw new IllegalArgumentException("expected at most " + maxRows + " rows per step but found " + rows);
        }
        if (rows == 0) {
            return;
        }
        model.step(plan(batch), logits, null);
    }

    /** The device plan of {@code batch}. */
    StepPlan plan(StepBatch batch) {
        return plan(batch, physical, perLogical, blocks, model.plan().blockSize(), vocabSize());
    }

    /**
     * The device plan of {@code batch}: rows as they are, each slot's block table translated to device block ids
     * (logical block b is {@code physical[b * perLogical .. + perLogical)}), and the logits wanted in the batch's
     * order.
     *
     * @throws IllegalArgumentException when a table names a block outside {@code [0, blocks)}
     */
    static StepPlan plan(StepBatch batch, int[] physical, int perLogical, int blocks, int deviceBlockSize, int vocab) {
        int rows = batch.rows();
        int[] tokens = new int[rows];
        int[] positions = new int[rows];
        int[] sequences = new int[rows];
        boolean[] want = new boolean[rows];
        int[][] tables = new int[batch.slotCount()][];
        for (int s = 0; s < tables.length; s++) {
            tables[s] = new int[0];
        }
        boolean[] translated = new boolean[tables.length];
        for (int r = 0; r < rows; r++) {
            int slot = batch.slot(r);
            tokens[r] = batch.token(r);
            positions[r] = batch.position(r);
            sequences[r] = slot;
            if (!translated[slot]) {
                tables[slot] = translate(batch.table(slot), batch.blockCount(slot), physical, perLogical, blocks);
                translated[slot] = true;
            }
        }
        int[] order = new int[batch.logitCount()];
        for (int i = 0; i < order.length; i++) {
            order[i] = batch.logitRow(i);
            want[order[i]] = true;
        }
        return StepPlan.build(tokens, positions, sequences, tables, want, deviceBlockSize, vocab).withLogitRows(order);
    }

    private static int[] translate(int[] table, int count, int[] physical, int perLogical, int blocks) {
        int[] out = new int[count * perLogical];
        for (int j = 0; j < count; j++) {
            int b = table[j];
            if (b < 0 || b >= blocks) {
                throw new IllegalArgumentException("expected block ids from 0 to " + (blocks - 1) + " but found " + b);
            }
            System.arraycopy(physical, b * perLogical, out, j * perLogical, perLogical);
        }
        return out;
    }

    /** Gives the device blocks back to the model's pool. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int b : physical) {
            model.blocks().free(b);
        }
    }
}
