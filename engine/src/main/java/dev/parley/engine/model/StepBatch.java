package dev.parley.engine.model;

import java.util.Arrays;

/**
 * The rows of one batched step, filled by a scheduler and run by a {@link BatchForward}: row r is
 * token {@code tokens[r]} at position {@code positions[r]} of the sequence in slot {@code slots[r]},
 * whose KV blocks are {@code tables[slot][0 .. blockCounts[slot])}. Rows of one sequence come in
 * position order. The logits of the rows listed in {@code logitRows[0 .. logitCount)} are wanted,
 * in that order. Reused from step to step: nothing is allocated per step.
 */
public final class StepBatch {

    private final int maxRows;
    final int[] tokens;
    final int[] positions;
    final int[] slots;
    final int[] logitRows;
    final int[][] tables;
    final int[] blockCounts;
    int rows;
    int logitCount;

    /** Room for {@code maxRows} rows of sequences in slots {@code 0 .. slots - 1}. */
    public StepBatch(int maxRows, int slots) {
        if (maxRows < 1 || slots < 1) {
            throw new IllegalArgumentException("expected at least one row and one slot but found " + maxRows
                    + " rows and " + slots + " slots");
        }
        this.maxRows = maxRows;
        tokens = new int[maxRows];
        positions = new int[maxRows];
        this.slots = new int[maxRows];
        logitRows = new int[maxRows];
        tables = new int[slots][];
        blockCounts = new int[slots];
    }

    /** Forgets every row. */
    public void clear() {
        rows = 0;
        logitCount = 0;
    }

    public int rows() { return rows; }

    public int maxRows() { return maxRows; }

    public int slotCount() { return tables.length; }

    /** Rows whose logits are wanted. */
    public int logitCount() { return logitCount; }

    /** Rows left before the batch is full. */
    public int room() { return maxRows - rows; }

    /** Token of row {@code r}. */
    public int token(int r) { return tokens[r]; }

    /** Position of row {@code r}. */
    public int position(int r) { return positions[r]; }

    /** Sequence slot of row {@code r}. */
    public int slot(int r) { return slots[r]; }

    /** The row of the {@code i}-th wanted logits. */
    public int logitRow(int i) { return logitRows[i]; }

    /** The block table of {@code slot} (the caller's array; its first {@link #blockCount} entries are valid). */
    public int[] table(int slot) { return tables[slot]; }

    /** Valid blocks in the table of {@code slot}. */
    public int blockCount(int slot) { return blockCounts[slot]; }

    /** Points {@code slot} at its block table; the array is read when the step runs. */
    public void setTable(int slot, int[] table, int blocks) {
        tables[slot] = table;
        blockCounts[slot] = blocks;
    }

    /**
     * Adds a row and returns the index of its logits among the wanted ones, or -1 when not wanted.
     *
     * @throws IllegalStateException when the batch is full
     */
    public int add(int slot, int token, int position, boolean wantLogits) {
        if (rows == maxRows) {
            throw new IllegalStateException("the step is full: " + maxRows + " rows");
        }
        tokens[rows] = token;
        positions[rows] = position;
        slots[rows] = slot;
        int index = -1;
        if (wantLogits) {
            index = logitCount;
            logitRows[logitCount++] = rows;
        }
        rows++;
        return index;
    }

    /** Distinct slots among the rows. */
    public int sequences() {
        int[] seen = Arrays.copyOf(slots, rows);
        Arrays.sort(seen);
        int n = 0;
        for (int i = 0; i < seen.length; i++) {
            if (i == 0 || seen[i] != seen[i - 1]) {
                n++;
            }
        }
        return n;
    }
}
