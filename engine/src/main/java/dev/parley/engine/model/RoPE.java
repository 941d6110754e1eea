package dev.parley.engine.model;

/**
 * Rotary position embedding as ggml computes it: {@code theta_i = p * base^(-2i/n_rot)} built by
 * repeated multiplication in float, divided by the optional per-frequency factor (Llama 3's
 * {@code rope_freqs.weight}) and multiplied by the linear frequency scale.
 */
public final class RoPE {

    private final RopeStyle style;
    private final int ropeDims;
    private final float thetaScale;
    private final float freqScale;
    private final float[] freqFactors;
    private final float mscale;

    public RoPE(Configuration config, float[] freqFactors) {
        this(config.architecture().ropeStyle(), config.ropeDims(), config.ropeFreqBase(), config.ropeFreqScale(),
                freqFactors, config.variant().ropeAttnFactor());
    }

    /** The rotation of Gemma's local (sliding-window) layers: their own base, no scaling, no factors. */
    public static RoPE local(Configuration config) {
        return new RoPE(config.architecture().ropeStyle(), config.ropeDims(), config.variant().localRopeBase(), 1f,
                null, 1f);
    }

    public RoPE(RopeStyle style, int ropeDims, float base, float freqScale, float[] freqFactors) {
        this(style, ropeDims, base, freqScale, freqFactors, 1f);
    }

    /** {@code mscale} multiplies the cosines and sines, so the rotated values (ggml's attn_factor). */
    public RoPE(RopeStyle style, int ropeDims, float base, float freqScale, float[] freqFactors, float mscale) {
        this.style = style;
        this.ropeDims = ropeDims;
        this.thetaScale = (float) Math.pow(base, -2.0 / ropeDims);
        this.freqScale = freqScale;
        this.freqFactors = freqFactors;
        this.mscale = mscale;
    }

    /** Number of (cos, sin) pairs per position. */
    public int pairs() {
        return ropeDims / 2;
    }

    /** Fills {@code cos[offset .. +pairs)} and {@code sin[...]} for {@code position}. */
    public void angles(int position, float[] cos, float[] sin, int offset) {
        float theta = position;
        for (int i = 0; i < ropeDims / 2; i++) {
            float ff = freqFactors != null ? freqFactors[i] : 1f;
            float t = freqScale * (theta / ff);
            cos[offset + i] = (float) Math.cos(t) * mscale;
            sin[offset + i] = (float) Math.sin(t) * mscale;
            theta *= thetaScale;
        }
    }

    /** Rotates {@code heads} consecutive heads of {@code headSize} values starting at {@code x[offset]}. */
    public void rotate(float[] x, int offset, int heads, int headSize, float[] cos, float[] sin, int angleOffset) {
        int half = ropeDims / 2;
        for (int h = 0; h < heads; h++) {
            int base = offset + h * headSize;
            for (int i = 0; i < half; i++) {
                int i0 = style == RopeStyle.NORM ? base + 2 * i : base + i;
                int i1 = style == RopeStyle.NORM ? i0 + 1 : i0 + half;
                float c = cos[angleOffset + i];
                float s = sin[angleOffset + i];
                float x0 = x[i0];
                float x1 = x[i1];
                x[i0] = x0 * c - x1 * s;
                x[i1] = x0 * s + x1 * c;
            }
        }
    }
}
