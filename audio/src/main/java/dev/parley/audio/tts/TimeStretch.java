package dev.parley.audio.tts;

/**
 * Changes the tempo of speech without changing its pitch, by waveform-similarity overlap-add (WSOLA): the output is
 * built from Hann-windowed frames of 20 ms overlapping by half; frame k is taken near input position
 * {@code k * hop * rate}, shifted by up to 5 ms to where it best continues the previous frame (the highest
 * correlation with the previous frame's natural continuation), so that periods line up and no phase jumps are
 * heard. Used for the speaking rate, which MaryTTS's HMM voice does not change itself.
 */
public final class TimeStretch {

    private TimeStretch() {
    }

    /**
     * {@code in} spoken {@code rate} times as fast (0.5 to 2): about {@code in.length / rate} samples.
     *
     * @throws IllegalArgumentException when the rate is outside 0.5 to 2 or the sample rate is not positive
     */
    public static short[] stretch(short[] in, int sampleRate, double rate) {
        if (!(rate >= 0.5 && rate <= 2)) {
            throw new IllegalArgumentException("expected a speaking rate from 0.5 to 2 but found " + rate);
        }
        if (sampleRate < 1) {
            throw new IllegalArgumentException("expected a positive sample rate but found " + sampleRate);
        }
        int frame = Math.max(16, sampleRate / 50) & ~1; // 20 ms
        int hop = frame / 2;
        int tolerance = Math.max(1, sampleRate / 200); // 5 ms
        if (rate == 1.0 || in.length < 2 * frame) {
            return rate == 1.0 ? in.clone() : resampleShort(in, rate);
        }
        float[] window = new float[frame];
        for (int i = 0; i < frame; i++) {
            window[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / frame)); // periodic Hann: halves sum to 1
        }
        int outLength = (int) Math.round(in.length / rate);
        float[] out = new float[outLength + frame];
        int previous = 0;
        for (int k = 0; ; k++) {
            int target = k * hop;
            if (target >= outLength) {
                break;
            }
            int nominal = (int) Math.round(k * hop * rate);
            int position;
            if (k == 0) {
                position = 0;
            } else {
                position = bestMatch(in, previous + hop, nominal, tolerance, frame);
            }
            if (position < 0) {
                break;
            }
            int n = Math.min(frame, in.length - position);
            for (int i = 0; i < n && target + i < out.length; i++) {
                out[target + i] += window[i] * in[position + i];
            }
            previous = position;
        }
        short[] result = new short[outLength];
        for (int i = 0; i < outLength; i++) {
            result[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(out[i])));
        }
        return result;
    }

    /**
     * The start within {@code nominal ± tolerance} whose frame correlates best with the frame at {@code natural}
     * (the previous frame's continuation), or -1 when no frame fits in the input any more.
     */
    private static int bestMatch(short[] in, int natural, int nominal, int tolerance, int frame) {
        int from = Math.max(0, nominal - tolerance);
        int to = Math.min(in.length - frame, nominal + tolerance);
        if (from > to) {
            return nominal < in.length ? Math.min(nominal, in.length - 1) : -1;
        }
        if (natural + frame > in.length) {
            return from;
        }
        int best = from;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int p = from; p <= to; p++) {
            long dot = 0;
            for (int i = 0; i < frame; i += 2) { // every other sample: plenty to find the period
                dot += (long) in[natural + i] * in[p + i];
            }
            if (dot > bestScore) {
                bestScore = dot;
                best = p;
            }
        }
        return best;
    }

    /** Too short to window: plain linear resampling to the new length. */
    private static short[] resampleShort(short[] in, double rate) {
        int n = Math.max(1, (int) Math.round(in.length / rate));
        short[] out = new short[n];
        for (int i = 0; i < n; i++) {
            double x = i * rate;
            int a = Math.min(in.length - 1, (int) x);
            int b = Math.min(in.length - 1, a + 1);
            double f = x - a;
            out[i] = (short) Math.round(in[a] * (1 - f) + in[b] * f);
        }
        return out;
    }
}
