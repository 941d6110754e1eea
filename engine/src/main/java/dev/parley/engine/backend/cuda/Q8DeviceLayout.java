package dev.parley.engine.backend.cuda;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.Q8_0Tensor;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The device layout of a Q8_0 matrix: ggml's interleaved 34-byte blocks (FP16 scale, 32 quants) split into one array
 * of quants, row-major (row r at {@code r * cols}, so every block is 32-byte aligned for vector loads), and one array
 * of FP16 scales (row r at {@code r * cols / 32}). Matrices of other types are quantized to Q8_0 first, as
 * {@link Q8_0Quantizer} does when the CPU quantizes weights on load, so the GPU computes with exactly the weights of
 * a CPU model loaded with int8 weights.
 */
public final class Q8DeviceLayout {

    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private Q8DeviceLayout() {
    }

    /** Bytes of quants of a {@code rows} x {@code cols} matrix. */
    public static long quantBytes(int rows, int cols) {
        return (long) rows * cols;
    }

    /** Bytes of scales of a {@code rows} x {@code cols} matrix. */
    public static long scaleBytes(int rows, int cols) {
        return (long) rows * (cols / KernelGrids.QK) * 2;
    }

    /**
     * Whether {@code t} can go to the device: rows a multiple of 32 values.
     */
    public static boolean fits(Tensor t) {
        return Q8_0Quantizer.fits(t.cols());
    }

    /**
     * Writes rows {@code [fromRow, toRow)} of {@code t} in device layout: quants to {@code quants} and scales to
     * {@code scales}, both starting at row {@code fromRow}'s place relative to {@code fromRow} (offset 0 is row
     * {@code fromRow}). {@code scratch} holds at least {@code t.cols()} floats (used for non-Q8_0 types).
     *
     * @throws IllegalArgumentException when the row length is not a multiple of 32 or a target is too small
     */
    public static void split(Tensor t, int fromRow, int toRow, MemorySegment quants, MemorySegment scales,
                             float[] scratch) {
        if (!fits(t)) {
            throw new IllegalArgumentException(t.name() + ": expected rows of a multiple of 32 values for the GPU but found "
                    + t.cols());
        }
        int cols = t.cols();
        int blocks = cols / KernelGrids.QK;
        int n = toRow - fromRow;
        if (fromRow < 0 || toRow > t.rows() || n < 0 || quants.byteSize() < quantBytes(n, cols)
                || scales.byteSize() < scaleBytes(n, cols)) {
            throw new IllegalArgumentException(t.name() + ": expected rows within [0, " + t.rows() + ") and targets of "
                    + quantBytes(n, cols) + " and " + scaleBytes(n, cols) + " bytes but found rows [" + fromRow + ", " + toRow
                    + ") and " + quants.byteSize() + " and " + scales.byteSize());
        }
        MemorySegment block = t.type() == GgmlType.Q8_0 ? null : MemorySegment.ofArray(new byte[Q8_0Tensor.BLOCK_BYTES * blocks]);
        for (int r = fromRow; r < toRow; r++) {
            MemorySegment src;
            long srcOff;
            if (block == null) {
                src = t.data();
                srcOff = r * t.rowBytes();
            } else {
                t.dequantizeRow(r, scratch, 0);
                Q8_0Quantizer.quantize(scratch, 0, cols, block, 0);
                src = block;
                srcOff = 0;
            }
            long qDst = (long) (r - fromRow) * cols;
            long sDst = (long) (r - fromRow) * blocks * 2;
            for (int b = 0; b < blocks; b++) {
                long bo = srcOff + (long) b * Q8_0Tensor.BLOCK_BYTES;
                scales.set(I16, sDst + 2L * b, src.get(I16, bo));
                MemorySegment.copy(src, bo + 2, quants, qDst + (long) b * KernelGrids.QK, KernelGrids.QK);
            }
        }
    }
}
