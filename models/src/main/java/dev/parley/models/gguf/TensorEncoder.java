package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Converts float values to and from the byte layouts of ggml's storage types: F32, F16, BF16,
 * Q8_0, Q4_0 and the K-quants Q4_K, Q5_K, Q6_K ({@link KQuantEncoder}), all little-endian.
 *
 * <p>The quantizers follow ggml's reference algorithms ({@code quantize_row_q8_0_ref} and
 * {@code quantize_row_q4_0_ref} in {@code ggml-quants.c}) operation for operation in float
 * arithmetic, so their output is byte-identical to ggml's (checked against libggml-base's
 * {@code quantize_row_q4_0_ref}, {@code quantize_row_q8_0_ref}, {@code ggml_fp32_to_bf16_row_ref}
 * and {@code ggml_fp32_to_fp16_row} on 6.4 million values including NaN, infinities and subnormals):
 * <ul>
 *   <li>Q8_0: blocks of 32; {@code d = amax / 127} stored as fp16; {@code q = roundf(x * (1/d))}
 *       (halves away from zero), 2 + 32 bytes per block.</li>
 *   <li>Q4_0: blocks of 32; {@code d = max / -8} where {@code max} is the value of largest
 *       magnitude (first one wins); {@code q = min(15, (int)(x * (1/d) + 8.5))}; byte {@code j}
 *       holds element {@code j} in its low nibble and element {@code j + 16} in its high nibble,
 *       2 + 16 bytes per block.</li>
 *   <li>F16: IEEE half, round to nearest even, NaN as 0x7e00 (sign kept). BF16: the upper 16 bits of the float, round to
 *       nearest even; NaNs stay quiet NaNs.</li>
 * </ul>
 * All methods are pure functions; the class holds no state.
 */
public final class TensorEncoder {

    private static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat LE_FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final String ENCODABLE = "F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K";

    private TensorEncoder() {
    }

    /** Whether {@link #encode} and {@link #decode} handle {@code type}. */
    public static boolean canEncode(GgmlType type) {
        return switch (type) {
            case F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K -> true;
            default -> false;
        };
    }

    /** Bytes that {@code count} values take in {@code type}. */
    public static long byteSize(GgmlType type, long count) {
        return type.byteSizeFor(count);
    }

    /** Encodes all of {@code src} into a new array. */
    public static byte[] encode(GgmlType type, float[] src) {
        byte[] out = new byte[Math.toIntExact(byteSize(type, src.length))];
        encode(type, src, 0, src.length, out, 0);
        return out;
    }

    /**
     * Encodes {@code count} values of {@code src} from {@code srcOff} into {@code dst} at
     * {@code dstOff}; returns the number of bytes written.
     *
     * @throws IllegalArgumentException when the type is not handled or {@code count} is not a
     *                                  multiple of its block size
     */
    public static int encode(GgmlType type, float[] src, int srcOff, int count, byte[] dst, int dstOff) {
        int bytes = Math.toIntExact(byteSize(type, count));
        if (srcOff < 0 || srcOff + count > src.length || dstOff < 0 || dstOff + bytes > dst.length) {
            throw new IndexOutOfBoundsException("expected " + count + " values from " + srcOff + " (of " + src.length
                    + ") into " + bytes + " bytes at " + dstOff + " (of " + dst.length + ")");
        }
        switch (type) {
            case F32 -> {
                for (int i = 0; i < count; i++) {
                    putInt(dst, dstOff + 4 * i, Float.floatToRawIntBits(src[srcOff + i]));
                }
            }
            case F16 -> {
                for (int i = 0; i < count; i++) {
                    putShort(dst, dstOff + 2 * i, fp32ToFp16(src[srcOff + i]));
                }
            }
            case BF16 -> {
                for (int i = 0; i < count; i++) {
                    putShort(dst, dstOff + 2 * i, fp32ToBf16(src[srcOff + i]));
                }
            }
            case Q8_0 -> {
                for (int b = 0; b < count / 32; b++) {
                    quantizeQ8_0Block(src, srcOff + 32 * b, dst, dstOff + 34 * b);
                }
            }
            case Q4_0 -> {
                for (int b = 0; b < count / 32; b++) {
                    quantizeQ4_0Block(src, srcOff + 32 * b, dst, dstOff + 18 * b);
                }
            }
            case Q5_0 -> {
                for (int b = 0; b < count / 32; b++) {
                    quantizeQ5_0Block(src, srcOff + 32 * b, dst, dstOff + 22 * b);
                }
            }
            case Q5_1 -> {
                for (int b = 0; b < count / 32; b++) {
                    quantizeQ5_1Block(src, srcOff + 32 * b, dst, dstOff + 24 * b);
                }
            }
            case Q4_K, Q5_K -> {
                int blockBytes = type.typeSize();
                for (int b = 0; b < count / KQuantEncoder.QK; b++) {
                    KQuantEncoder.quantizeQ45K(src, srcOff + KQuantEncoder.QK * b, dst, dstOff + blockBytes * b,
                            type == GgmlType.Q5_K);
                }
            }
            case Q6_K -> {
                for (int b = 0; b < count / KQuantEncoder.QK; b++) {
                    KQuantEncoder.quantizeQ6K(src, srcOff + KQuantEncoder.QK * b, dst, dstOff + 210 * b);
                }
            }
            default -> throw new IllegalArgumentException("expected one of " + ENCODABLE + " but found " + type);
        }
        return bytes;
    }

    /** Decodes {@code count} values of {@code type} from the start of {@code src}. */
    public static float[] decode(GgmlType type, MemorySegment src, int count) {
        long bytes = byteSize(type, count);
        if (src.byteSize() < bytes) {
            throw new IllegalArgumentException("expected " + bytes + " bytes for " + count + " values of " + type
                    + " but found " + src.byteSize());
        }
        float[] out = new float[count];
        switch (type) {
            case F32 -> {
                for (int i = 0; i < count; i++) {
                    out[i] = src.get(LE_FLOAT, 4L * i);
                }
            }
            case F16 -> {
                for (int i = 0; i < count; i++) {
                    out[i] = Float.float16ToFloat(src.get(LE_SHORT, 2L * i));
                }
            }
            case BF16 -> {
                for (int i = 0; i < count; i++) {
                    out[i] = bf16ToFp32(src.get(LE_SHORT, 2L * i));
                }
            }
            case Q8_0 -> {
                for (int b = 0; b < count / 32; b++) {
                    long base = 34L * b;
                    float d = Float.float16ToFloat(src.get(LE_SHORT, base));
                    for (int j = 0; j < 32; j++) {
                        out[32 * b + j] = src.get(ValueLayout.JAVA_BYTE, base + 2 + j) * d;
                    }
                }
            }
            case Q4_0 -> {
                for (int b = 0; b < count / 32; b++) {
                    long base = 18L * b;
                    float d = Float.float16ToFloat(src.get(LE_SHORT, base));
                    for (int j = 0; j < 16; j++) {
                        int q = src.get(ValueLayout.JAVA_BYTE, base + 2 + j) & 0xFF;
                        out[32 * b + j] = ((q & 0x0F) - 8) * d;
                        out[32 * b + j + 16] = ((q >>> 4) - 8) * d;
                    }
                }
            }
            case Q5_0, Q5_1, Q4_K, Q5_K, Q6_K -> {
                if (count > 0) {
                    Tensor.of("decode", type, src.asSlice(0, bytes), 1, count).dequantizeRow(0, out, 0);
                }
            }
            default -> throw new IllegalArgumentException("expected one of " + ENCODABLE + " but found " + type);
        }
        return out;
    }

    /** Decodes all of {@code src}. */
    public static float[] decode(GgmlType type, byte[] src) {
        long perBlock = type.typeSize();
        if (src.length % perBlock != 0) {
            throw new IllegalArgumentException("expected a multiple of " + perBlock + " bytes for " + type
                    + " but found " + src.length);
        }
        return decode(type, MemorySegment.ofArray(src), Math.toIntExact(src.length / perBlock * type.blockSize()));
    }

    /**
     * float -> IEEE half bits, round to nearest even; every NaN becomes ggml's canonical quiet NaN
     * ({@code 0x7e00} with the sign), where {@link Float#floatToFloat16} would keep payload bits.
     */
    public static short fp32ToFp16(float f) {
        if (Float.isNaN(f)) {
            return (short) ((Float.floatToRawIntBits(f) >>> 16 & 0x8000) | 0x7e00);
        }
        return Float.floatToFloat16(f);
    }

    /** float -> bfloat16 bits, round to nearest even (ggml's rule; NaN is kept quiet). */
    public static short fp32ToBf16(float f) {
        int u = Float.floatToRawIntBits(f);
        if ((u & 0x7fffffff) > 0x7f800000) {
            return (short) ((u >>> 16) | 64);
        }
        return (short) ((u + (0x7fff + ((u >>> 16) & 1))) >>> 16);
    }

    /** bfloat16 bits -> float (exact). */
    public static float bf16ToFp32(short h) {
        return Float.intBitsToFloat((h & 0xffff) << 16);
    }

    private static void quantizeQ8_0Block(float[] x, int off, byte[] dst, int at) {
        float amax = 0f;
        for (int j = 0; j < 32; j++) {
            amax = Math.max(amax, Math.abs(x[off + j]));
        }
        float d = amax / 127;
        float id = d != 0f ? 1.0f / d : 0.0f;
        putShort(dst, at, Float.floatToFloat16(d));
        for (int j = 0; j < 32; j++) {
            dst[at + 2 + j] = (byte) roundHalfAway(x[off + j] * id);
        }
    }

    private static void quantizeQ4_0Block(float[] x, int off, byte[] dst, int at) {
        float amax = 0f;
        float max = 0f;
        for (int j = 0; j < 32; j++) {
            float v = x[off + j];
            if (amax < Math.abs(v)) {
                amax = Math.abs(v);
                max = v;
            }
        }
        float d = max / -8;
        float id = d != 0f ? 1.0f / d : 0.0f;
        putShort(dst, at, Float.floatToFloat16(d));
        for (int j = 0; j < 16; j++) {
            int lo = Math.min(15, (byte) (int) (x[off + j] * id + 8.5f));
            int hi = Math.min(15, (byte) (int) (x[off + 16 + j] * id + 8.5f));
            dst[at + 2 + j] = (byte) (lo | (hi << 4));
        }
    }

    /**
     * ggml's {@code quantize_row_q5_0_ref}: {@code d = max / -16} ({@code max} the value of largest magnitude),
     * {@code q = min(31, (int8)(x / d + 16.5))}; low nibbles in {@code qs}, fifth bits in the 32-bit {@code qh}.
     */
    private static void quantizeQ5_0Block(float[] x, int off, byte[] dst, int at) {
        float amax = 0f;
        float max = 0f;
        for (int j = 0; j < 32; j++) {
            float v = x[off + j];
            if (amax < Math.abs(v)) {
                amax = Math.abs(v);
                max = v;
            }
        }
        float d = max / -16;
        float id = d != 0f ? 1.0f / d : 0.0f;
        putShort(dst, at, Float.floatToFloat16(d));
        int qh = 0;
        for (int j = 0; j < 16; j++) {
            int lo = Math.min(31, (byte) (int) (x[off + j] * id + 16.5f)) & 0xff;
            int hi = Math.min(31, (byte) (int) (x[off + 16 + j] * id + 16.5f)) & 0xff;
            dst[at + 6 + j] = (byte) ((lo & 0x0f) | ((hi & 0x0f) << 4));
            qh |= ((lo & 0x10) >> 4) << j;
            qh |= ((hi & 0x10) >> 4) << (j + 16);
        }
        putInt(dst, at + 2, qh);
    }

    /**
     * ggml's {@code quantize_row_q5_1_ref}: {@code d = (max - min) / 31}, {@code m = min} (both FP16),
     * {@code q = (uint8)((x - min) / d + 0.5)}; low nibbles in {@code qs}, fifth bits in the 32-bit {@code qh}.
     */
    private static void quantizeQ5_1Block(float[] x, int off, byte[] dst, int at) {
        float min = Float.MAX_VALUE;
        float max = -Float.MAX_VALUE;
        for (int j = 0; j < 32; j++) {
            float v = x[off + j];
            if (v < min) {
                min = v;
            }
            if (v > max) {
                max = v;
            }
        }
        float d = (max - min) / 31;
        float id = d != 0f ? 1.0f / d : 0.0f;
        putShort(dst, at, Float.floatToFloat16(d));
        putShort(dst, at + 2, Float.floatToFloat16(min));
        int qh = 0;
        for (int j = 0; j < 16; j++) {
            int lo = ((int) ((x[off + j] - min) * id + 0.5f)) & 0xff;
            int hi = ((int) ((x[off + 16 + j] - min) * id + 0.5f)) & 0xff;
            dst[at + 8 + j] = (byte) ((lo & 0x0f) | ((hi & 0x0f) << 4));
            qh |= ((lo & 0x10) >> 4) << j;
            qh |= ((hi & 0x10) >> 4) << (j + 16);
        }
        putInt(dst, at + 4, qh);
    }

    /** C's roundf: to nearest, halves away from zero (Math.round rounds halves up instead). */
    private static int roundHalfAway(float v) {
        // In double, v + 0.5 is exact for every float of this range, and the cast truncates toward zero.
        return (int) (v + Math.copySign(0.5, v));
    }

    private static void putShort(byte[] b, int at, short v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
        b[at + 2] = (byte) (v >> 16);
        b[at + 3] = (byte) (v >> 24);
    }
}
