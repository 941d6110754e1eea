package dev.parley.engine.tensor;

/** bfloat16 conversions as ggml does them (round to nearest even, NaN kept quiet). */
public final class Bf16 {
    private Bf16() {
    }

    public static float toFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    public static short fromFloat(float f) {
        int u = Float.floatToRawIntBits(f);
        if ((u & 0x7fffffff) > 0x7f800000) {
            return (short) ((u >>> 16) | 64);
        }
        return (short) ((u + (0x7fff + ((u >>> 16) & 1))) >>> 16);
    }
}
