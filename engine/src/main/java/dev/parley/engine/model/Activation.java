package dev.parley.engine.model;

/** The activation applied to the feed-forward gate before it multiplies the up projection. */
public enum Activation {
    /** {@code x * sigmoid(x)} (SwiGLU: Llama, Qwen, Phi). */
    SILU {
        @Override
        public float apply(float x) {
            return x / (1f + (float) Math.exp(-x));
        }
    },
    /**
     * GELU with the tanh approximation (GeGLU: Gemma), rounded as llama.cpp's CPU backend computes it: the input
     * rounded to F16 looks up a table of F16 results; below -10 it is 0 and from 10 on the input itself.
     */
    GELU_TANH {
        @Override
        public float apply(float x) {
            if (x <= -10f) {
                return 0f;
            }
            if (x >= 10f) {
                return x;
            }
            return GeluTable.VALUES[Float.floatToFloat16(x) & 0xFFFF];
        }
    };

    /** tanh-approximated GELU in float. */
    static float gelu(float x) {
        final float sqrt2OverPi = 0.79788456080286535587989211986876f;
        final float coef = 0.044715f;
        return 0.5f * x * (1f + (float) Math.tanh(sqrt2OverPi * x * (1f + coef * x * x)));
    }

    /** GELU of every F16 value, rounded to F16 (built once, 256 KiB). */
    private static final class GeluTable {
        static final float[] VALUES = new float[1 << 16];

        static {
            for (int i = 0; i < VALUES.length; i++) {
                float v = Float.float16ToFloat((short) i);
                VALUES[i] = Float.isFinite(v) ? Float.float16ToFloat(Float.floatToFloat16(gelu(v))) : v;
            }
        }
    }

    public abstract float apply(float x);
}
