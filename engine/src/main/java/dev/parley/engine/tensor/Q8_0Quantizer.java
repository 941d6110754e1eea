package dev.parley.engine.tensor;

import dev.parley.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;

/**
 * ggml's reference Q8_0 quantization ({@code quantize_row_q8_0_ref}), bit for bit: per block of 32 values
 * {@code amax = max |x|}, {@code d = amax / 127} stored as FP16 (round to nearest even),
 * {@code q = roundf(x * (1 / d))} (halves away from zero; 0 when {@code d == 0}).
 *
 * <p>Every value is then within {@code d / 2} of {@code fp16(d) * q} up to the FP16 rounding of {@code d}
 * (at most {@code 127 * |d - fp16(d)|} more), which the tests check for every block.
 */
public final class Q8_0Quantizer {

    private Q8_0Quantizer() {
    }

    /** Quantizes {@code x[off .. off+32)} into the 34 bytes at {@code dst[at ..]}. */
    public static void quantizeBlock(float[] x, int off, MemorySegment dst, long at) {
        float amax = 0f;
        for (int j = 0; j < Activations.BLOCK; j++) {
            amax = Math.max(amax, Math.abs(x[off + j]));
        }
        float d = amax / 127;
        float id = d != 0f ? 1.0f / d : 0.0f;
        dst.set(Layouts.I16, at, Float.floatToFloat16(d));
        for (int j = 0; j < Activations.BLOCK; j++) {
            dst.set(Layouts.I8, at + 2 + j, (byte) roundHalfAway(x[off + j] * id));
        }
    }

    /** Quantizes {@code count} values (a multiple of 32) of {@code x} starting at {@code off} to {@code dst[at ..]}. */
    public static void quantize(float[] x, int off, int count, MemorySegment dst, long at) {
        if (count % Activations.BLOCK != 0) {
            throw new IllegalArgumentException("expected a multiple of 32 values for Q8_0 but found " + count);
        }
        for (int b = 0; b < count / Activations.BLOCK; b++) {
            quantizeBlock(x, off + b * Activations.BLOCK, dst, at + (long) b * Q8_0Tensor.BLOCK_BYTES);
        }
    }

    /** The Q8_0 encoding of all of {@code x} (a multiple of 32 values). */
    public static byte[] quantize(float[] x) {
        byte[] out = new byte[Math.toIntExact(GgmlType.Q8_0.byteSizeFor(x.length))];
        quantize(x, 0, x.length, MemorySegment.ofArray(out), 0);
        return out;
    }

    /**
     * Quantizes rows {@code [fromRow, toRow)} of {@code src} into {@code dst}, laid out as a Q8_0 tensor of the
     * same shape; {@code scratch} holds at least one row.
     */
    public static void quantizeRows(Tensor src, int fromRow, int toRow, MemorySegment dst, float[] scratch) {
        long rowBytes = GgmlType.Q8_0.byteSizeFor(src.cols());
        for (int r = fromRow; r < toRow; r++) {
            src.dequantizeRow(r, scratch, 0);
            quantize(scratch, 0, src.cols(), dst, r * rowBytes);
        }
    }

    /** Whether a tensor of {@code cols} values per row can be held in Q8_0. */
    public static boolean fits(int cols) {
        return cols % Activations.BLOCK == 0;
    }

    /** C's {@code roundf}: to nearest, halves away from zero (exact in double for every float). */
    static int roundHalfAway(float v) {
        return (int) (v + Math.copySign(0.5, v));
    }
}
