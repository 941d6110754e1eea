package dev.parley.engine.backend.cuda;

import java.util.Arrays;

/**
 * The host-side arrays of one forward step over a batch of rows, each row one token of one sequence, as the kernels
 * read them: where each row's key and value go in the paged cache, where its sequence's block table starts in the
 * flattened tables, and which rows want logits.
 *
 * @param tokens      token id per row
 * @param positions   position per row
 * @param kvRows      cache row per row: {@code table[position / blockSize] * blockSize + position % blockSize}
 * @param tableStarts per row, the offset of its sequence's block table in {@code tables}
 * @param tables      the block tables of the step's sequences, one after another
 * @param logitRows   the rows whose logits are wanted, in the order their logits are written
 */
public record StepPlan(int[] tokens, int[] positions, int[] kvRows, int[] tableStarts, int[] tables, int[] logitRows) {

    /**
     * This plan with the logits of {@code rows} wanted, in that order.
     *
     * @throws IllegalArgumentException when a row is outside the step
     */
    public StepPlan withLogitRows(int[] rows) {
        for (int r : rows) {
            if (r < 0 || r >= tokens.length) {
                throw new IllegalArgumentException("expected logit rows from 0 to " + (tokens.length - 1) + " but found "
                        + r);
            }
        }
        return new StepPlan(tokens, positions, kvRows, tableStarts, tables, rows.clone());
    }

    /** Rows of the step. */
    public int rows() {
        return tokens.length;
    }

    /**
     * Builds the plan of rows {@code r} with {@code tokens[r]} at {@code positions[r]} of sequence
     * {@code sequences[r]}, whose block table is {@code blockTables[sequences[r]]}.
     *
     * @throws IllegalArgumentException when the arrays differ in length, a sequence index is out of range, a position
     *                                  is negative or beyond its table, or a token is outside {@code [0, vocab)}
     */
    public static StepPlan build(int[] tokens, int[] positions, int[] sequences, int[][] blockTables,
                                 boolean[] wantLogits, int blockSize, int vocab) {
        int n = tokens.length;
        if (n == 0 || positions.length != n || sequences.length != n || wantLogits.length != n) {
            throw new IllegalArgumentException("expected at least one row and equal numbers of tokens, positions, sequences"
                    + " and logit flags but found " + n + ", " + positions.length + ", " + sequences.length + ", "
                    + wantLogits.length);
        }
        int[] starts = new int[blockTables.length];
        int total = 0;
        for (int s = 0; s < blockTables.length; s++) {
            starts[s] = total;
            total += blockTables[s].length;
        }
        int[] tables = new int[Math.max(1, total)];
        for (int s = 0; s < blockTables.length; s++) {
            System.arraycopy(blockTables[s], 0, tables, starts[s], blockTables[s].length);
        }
        int[] kvRows = new int[n];
        int[] tableStarts = new int[n];
        int[] logits = new int[n];
        int logitCount = 0;
        for (int r = 0; r < n; r++) {
            int s = sequences[r];
            if (s < 0 || s >= blockTables.length) {
                throw new IllegalArgumentException("row " + r + ": expected a sequence from 0 to " + (blockTables.length - 1)
                        + " but found " + s);
            }
            int p = positions[r];
            if (p < 0 || p / blockSize >= blockTables[s].length) {
                throw new IllegalArgumentException("row " + r + ": expected a position from 0 to "
                        + (blockTables[s].length * blockSize - 1) + " (the blocks of sequence " + s + ") but found " + p);
            }
            if (tokens[r] < 0 || tokens[r] >= vocab) {
                throw new IndexOutOfBoundsException("row " + r + ": expected a token id from 0 to " + (vocab - 1)
                        + " but found " + tokens[r]);
            }
            kvRows[r] = blockTables[s][p / blockSize] * blockSize + p % blockSize;
            tableStarts[r] = starts[s];
            if (wantLogits[r]) {
                logits[logitCount++] = r;
            }
        }
        return new StepPlan(tokens.clone(), positions.clone(), kvRows, tableStarts, tables,
                Arrays.copyOf(logits, logitCount));
    }
}
