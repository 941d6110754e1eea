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
    /** GELU with the tanh approximation, as ggml's {@code gelu} (GeGLU: Gemma). */
    GELU_TANH {
        private static final float SQRT_2_OVER_PI = 0.79788456080286535587989211986876f;
        private static final float COEF = 0.044715f;

        @Override
        public float apply(float x) {
            return 0.5f * x * (1f + (float) Math.tanh(SQRT_2_OVER_PI * x * (1f + COEF * x * x)));
        }
    };

    public abstract float apply(float x);
}
