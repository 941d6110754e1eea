package dev.parley.models.gguf;

/**
 * ggml's reference K-quant quantizers ({@code quantize_row_q4_K_ref}, {@code quantize_row_q5_K_ref},
 * {@code quantize_row_q6_K_ref} in {@code ggml-quants.c}: what {@code llama-quantize} runs without an importance
 * matrix), written here in float arithmetic step by step from their description:
 * <ul>
 *   <li>Q4_K / Q5_K: each sub-block of 32 gets weights {@code sqrt(mean(x^2)) + |x|} and a scale and min from
 *       {@code make_qkx2_quants} (a least-squares search over 21 / 16 trial inverse scales, {@code rmin} -1 / -0.5,
 *       step 0.1); the 8 scales and 8 mins are then quantized to 6 bits against their maxima
 *       ({@code d = max_scale / 63}, {@code dmin = max_min / 63}, FP16), and the values re-quantized with the
 *       stored scales: {@code q = clamp(round((x + dmin*m) / (d*sc)), 0, 15 | 31)}.</li>
 *   <li>Q6_K: each sub-block of 16 gets a signed scale from {@code make_qx_quants} (nmax 32, weights x^2, a search
 *       over 18 trial scales); the 16 scales are quantized to int8 against the one of largest magnitude
 *       ({@code iscale = -128 / max}, {@code d = 1 / iscale} in FP16) and the values re-quantized:
 *       {@code q = clamp(round(x / (d*sc)), -32, 31) + 32}.</li>
 * </ul>
 * Rounding is ggml's {@code nearest_int} (to nearest, ties to even). The block layouts are those the engine
 * decodes ({@code Q4_KTensor}, {@code Q5_KTensor}, {@code Q6_KTensor}).
 */
final class KQuantEncoder {

    static final int QK = 256;
    private static final float GROUP_MAX_EPS = 1e-15f;

    private KQuantEncoder() {
    }

    static int nearestInt(float v) {
        return (int) Math.rint(v);
    }

    /** Quantizes 256 values at {@code x[off]} into the 144 (Q4_K) or 176 (Q5_K) bytes at {@code dst[at]}. */
    static void quantizeQ45K(float[] x, int off, byte[] dst, int at, boolean five) {
        int nmax = five ? 31 : 15;
        float rmin = five ? -0.5f : -1f;
        int nstep = five ? 15 : 20;
        int[] levels = new int[QK];
        int[] aux = new int[32];
        float[] weights = new float[32];
        float[] mins = new float[8];
        float[] scales = new float[8];
        float maxScale = 0;
        float maxMin = 0;
        for (int j = 0; j < 8; j++) {
            int o = off + 32 * j;
            float sumX2 = 0;
            for (int l = 0; l < 32; l++) {
                sumX2 += x[o + l] * x[o + l];
            }
            float avX = (float) Math.sqrt(sumX2 / 32);
            for (int l = 0; l < 32; l++) {
                weights[l] = avX + Math.abs(x[o + l]);
            }
            float[] theMin = new float[1];
            scales[j] = makeQkx2(32, nmax, x, o, weights, levels, 32 * j, theMin, aux, rmin, 0.1f, nstep);
            mins[j] = theMin[0];
            if (scales[j] > maxScale) {
                maxScale = scales[j];
            }
            if (mins[j] > maxMin) {
                maxMin = mins[j];
            }
        }
        float invScale = maxScale > 0 ? 63f / maxScale : 0f;
        float invMin = maxMin > 0 ? 63f / maxMin : 0f;
        byte[] s = new byte[12];
        int[] ls = new int[8];
        int[] lm = new int[8];
        for (int j = 0; j < 8; j++) {
            ls[j] = Math.min(63, nearestInt(invScale * scales[j]) & 0xff);
            lm[j] = Math.min(63, nearestInt(invMin * mins[j]) & 0xff);
            if (j < 4) {
                s[j] = (byte) ls[j];
                s[j + 4] = (byte) lm[j];
            } else {
                s[j + 4] = (byte) ((ls[j] & 0xf) | ((lm[j] & 0xf) << 4));
                s[j - 4] |= (byte) ((ls[j] >> 4) << 6);
                s[j] |= (byte) ((lm[j] >> 4) << 6);
            }
        }
        short dBits = TensorEncoder.fp32ToFp16(maxScale / 63f);
        short dminBits = TensorEncoder.fp32ToFp16(maxMin / 63f);
        float d0 = Float.float16ToFloat(dBits);
        float dmin0 = Float.float16ToFloat(dminBits);
        for (int j = 0; j < 8; j++) {
            float d = d0 * ls[j];
            if (d == 0f) {
                continue;
            }
            float dm = dmin0 * lm[j];
            for (int ii = 0; ii < 32; ii++) {
                int l = nearestInt((x[off + 32 * j + ii] + dm) / d);
                levels[32 * j + ii] = Math.max(0, Math.min(nmax, l));
            }
        }
        putShort(dst, at, dBits);
        putShort(dst, at + 2, dminBits);
        System.arraycopy(s, 0, dst, at + 4, 12);
        if (five) {
            int qh = at + 16;
            int ql = at + 48;
            for (int j = 0; j < 32; j++) {
                dst[qh + j] = 0;
            }
            int m1 = 1;
            int m2 = 2;
            for (int n = 0; n < QK; n += 64) {
                for (int j = 0; j < 32; j++) {
                    int l1 = levels[n + j];
                    if (l1 > 15) {
                        l1 -= 16;
                        dst[qh + j] |= (byte) m1;
                    }
                    int l2 = levels[n + j + 32];
                    if (l2 > 15) {
                        l2 -= 16;
                        dst[qh + j] |= (byte) m2;
                    }
                    dst[ql + j] = (byte) (l1 | (l2 << 4));
                }
                m1 <<= 2;
                m2 <<= 2;
                ql += 32;
            }
        } else {
            int q = at + 16;
            for (int n = 0; n < QK; n += 64) {
                for (int l = 0; l < 32; l++) {
                    dst[q + l] = (byte) (levels[n + l] | (levels[n + l + 32] << 4));
                }
                q += 32;
            }
        }
    }

    /**
     * ggml's {@code make_qkx2_quants} (weighted least squares of {@code x ~ scale * L - min}, with {@code min <= 0}
     * folded in): writes the levels to {@code levels[lo ..]} and {@code -min} to {@code theMin[0]}; returns the scale.
     */
    static float makeQkx2(int n, int nmax, float[] x, int xo, float[] w, int[] levels, int lo, float[] theMin,
                          int[] aux, float rmin, float rdelta, int nstep) {
        float min = x[xo];
        float max = x[xo];
        float sumW = w[0];
        float sumX = sumW * x[xo];
        for (int i = 1; i < n; i++) {
            if (x[xo + i] < min) {
                min = x[xo + i];
            }
            if (x[xo + i] > max) {
                max = x[xo + i];
            }
            sumW += w[i];
            sumX += w[i] * x[xo + i];
        }
        if (min > 0) {
            min = 0;
        }
        if (max == min) {
            for (int i = 0; i < n; i++) {
                levels[lo + i] = 0;
            }
            theMin[0] = -min;
            return 0f;
        }
        float iscale = nmax / (max - min);
        float scale = 1 / iscale;
        float bestError = 0;
        for (int i = 0; i < n; i++) {
            int l = nearestInt(iscale * (x[xo + i] - min));
            levels[lo + i] = Math.max(0, Math.min(nmax, l));
            float diff = scale * levels[lo + i] + min - x[xo + i];
            bestError += w[i] * (diff * diff);
        }
        for (int is = 0; is <= nstep; is++) {
            iscale = (rmin + rdelta * is + nmax) / (max - min);
            float sumL = 0;
            float sumL2 = 0;
            float sumXL = 0;
            for (int i = 0; i < n; i++) {
                int l = Math.max(0, Math.min(nmax, nearestInt(iscale * (x[xo + i] - min))));
                aux[i] = l;
                sumL += w[i] * l;
                sumL2 += w[i] * l * l;
                sumXL += w[i] * l * x[xo + i];
            }
            float det = sumW * sumL2 - sumL * sumL;
            if (det > 0) {
                float thisScale = (sumW * sumXL - sumX * sumL) / det;
                float thisMin = (sumL2 * sumX - sumL * sumXL) / det;
                if (thisMin > 0) {
                    thisMin = 0;
                    thisScale = sumXL / sumL2;
                }
                float error = 0;
                for (int i = 0; i < n; i++) {
                    float diff = thisScale * aux[i] + thisMin - x[xo + i];
                    error += w[i] * (diff * diff);
                }
                if (error < bestError) {
                    for (int i = 0; i < n; i++) {
                        levels[lo + i] = aux[i];
                    }
                    bestError = error;
                    scale = thisScale;
                    min = thisMin;
                }
            }
        }
        theMin[0] = -min;
        return scale;
    }

    /** Quantizes 256 values at {@code x[off]} into the 210 Q6_K bytes at {@code dst[at]}. */
    static void quantizeQ6K(float[] x, int off, byte[] dst, int at) {
        int[] levels = new int[QK];
        float[] scales = new float[16];
        float maxScale = 0;
        float maxAbsScale = 0;
        for (int ib = 0; ib < 16; ib++) {
            float scale = makeQx(16, 32, x, off + 16 * ib, levels, 16 * ib);
            scales[ib] = scale;
            if (Math.abs(scale) > maxAbsScale) {
                maxAbsScale = Math.abs(scale);
                maxScale = scale;
            }
        }
        if (maxAbsScale < GROUP_MAX_EPS) {
            java.util.Arrays.fill(dst, at, at + 210, (byte) 0);
            return;
        }
        float iscale = -128f / maxScale;
        short dBits = TensorEncoder.fp32ToFp16(1 / iscale);
        byte[] sc = new byte[16];
        for (int ib = 0; ib < 16; ib++) {
            sc[ib] = (byte) Math.min(127, nearestInt(iscale * scales[ib]));
        }
        float d0 = Float.float16ToFloat(dBits);
        for (int j = 0; j < 16; j++) {
            float d = d0 * sc[j];
            if (d == 0f) {
                continue;
            }
            for (int ii = 0; ii < 16; ii++) {
                int l = nearestInt(x[off + 16 * j + ii] / d);
                levels[16 * j + ii] = Math.max(-32, Math.min(31, l)) + 32;
            }
        }
        int ql = at;
        int qh = at + 128;
        for (int j = 0; j < QK; j += 128) {
            for (int l = 0; l < 32; l++) {
                int q1 = levels[j + l] & 0xf;
                int q2 = levels[j + l + 32] & 0xf;
                int q3 = levels[j + l + 64] & 0xf;
                int q4 = levels[j + l + 96] & 0xf;
                dst[ql + l] = (byte) (q1 | (q3 << 4));
                dst[ql + l + 32] = (byte) (q2 | (q4 << 4));
                dst[qh + l] = (byte) ((levels[j + l] >> 4) | ((levels[j + l + 32] >> 4) << 2)
                        | ((levels[j + l + 64] >> 4) << 4) | ((levels[j + l + 96] >> 4) << 6));
            }
            ql += 64;
            qh += 32;
        }
        System.arraycopy(sc, 0, dst, at + 192, 16);
        putShort(dst, at + 208, dBits);
    }

    /**
     * ggml's {@code make_qx_quants} with {@code rmse_type} 1 (weights {@code x^2}) and no importance weights: writes
     * levels {@code l + nmax} to {@code levels[lo ..]}, returns the scale.
     */
    static float makeQx(int n, int nmax, float[] x, int xo, int[] levels, int lo) {
        float max = 0;
        float amax = 0;
        for (int i = 0; i < n; i++) {
            float ax = Math.abs(x[xo + i]);
            if (ax > amax) {
                amax = ax;
                max = x[xo + i];
            }
        }
        if (amax < GROUP_MAX_EPS) {
            for (int i = 0; i < n; i++) {
                levels[lo + i] = 0;
            }
            return 0f;
        }
        float iscale = -nmax / max;
        float sumLX = 0;
        float sumL2 = 0;
        for (int i = 0; i < n; i++) {
            int l = Math.max(-nmax, Math.min(nmax - 1, nearestInt(iscale * x[xo + i])));
            levels[lo + i] = l + nmax;
            float w = x[xo + i] * x[xo + i];
            sumLX += w * x[xo + i] * l;
            sumL2 += w * l * l;
        }
        float scale = sumL2 != 0 ? sumLX / sumL2 : 0f;
        float best = scale * sumLX;
        for (int is = -9; is <= 9; is++) {
            if (is == 0) {
                continue;
            }
            iscale = -(nmax + 0.1f * is) / max;
            sumLX = 0;
            sumL2 = 0;
            for (int i = 0; i < n; i++) {
                int l = Math.max(-nmax, Math.min(nmax - 1, nearestInt(iscale * x[xo + i])));
                float w = x[xo + i] * x[xo + i];
                sumLX += w * x[xo + i] * l;
                sumL2 += w * l * l;
            }
            if (sumL2 > 0 && sumLX * sumLX > best * sumL2) {
                for (int i = 0; i < n; i++) {
                    int l = nearestInt(iscale * x[xo + i]);
                    levels[lo + i] = nmax + Math.max(-nmax, Math.min(nmax - 1, l));
                }
                scale = sumLX / sumL2;
                best = scale * sumLX;
            }
        }
        return scale;
    }

    private static void putShort(byte[] b, int at, short v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
    }
}
