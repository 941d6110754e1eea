package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import java.util.Arrays;

/**
 * Streaming sample-rate converter: band-limited (windowed-sinc) interpolation, polyphase for the
 * rational ratio {@code outRate/inRate}. The kernel has 16 zero crossings on each side of the
 * centre (at the lower of the two Nyquist frequencies, scaled by 0.94 when downsampling so the
 * Blackman-windowed transition band stays below the new Nyquist), and each phase is normalised to
 * unit DC gain. Feed blocks with {@link #process}, then {@link #flush} once at the end; the output
 * has {@code ceil(n * outRate / inRate)} samples for {@code n} input samples, aligned with the input
 * (no delay). Not thread-safe: one instance per stream.
 */
public final class Resampler {
    private static final int ZERO_CROSSINGS = 16;
    private static final long MAX_TABLE = 4_000_000;

    private final int inRate;
    private final int outRate;
    private final int up;      // L
    private final int down;    // M
    private final int half;    // H: taps on each side
    private final float[][] phases;  // [phase][2H] weights for x[i-H+1 .. i+H]

    private float[] buf;      // input samples, buf[0] is absolute input index bufStart
    private int bufLen;
    private long bufStart;
    private long inputCount;  // real input samples seen
    private long nextOut;     // index of the next output sample

    public Resampler(int inRate, int outRate) {
        if (inRate <= 0 || outRate <= 0) {
            throw new IllegalArgumentException("expected positive sample rates but found " + inRate + " -> " + outRate);
        }
        this.inRate = inRate;
        this.outRate = outRate;
        int g = gcd(inRate, outRate);
        up = outRate / g;
        down = inRate / g;
        double fc = up < down ? 0.94 * up / down : 1.0;   // cutoff relative to the input Nyquist
        half = (int) Math.ceil(ZERO_CROSSINGS / fc);
        if ((long) up * 2 * half > MAX_TABLE) {
            throw new IllegalArgumentException("unsupported sample-rate ratio " + inRate + " -> " + outRate
                    + ": expected rates with a common divisor giving at most " + MAX_TABLE / (2L * half) + " phases");
        }
        phases = new float[up][2 * half];
        for (int p = 0; p < up; p++) {
            double frac = (double) p / up;
            double sum = 0;
            for (int k = 0; k < 2 * half; k++) {
                int m = k - half + 1;           // input offset relative to floor(t)
                double tau = frac - m;          // t - j
                double w = blackman(tau / half);
                double v = fc * sinc(fc * tau) * w;
                phases[p][k] = (float) v;
                sum += v;
            }
            for (int k = 0; k < 2 * half; k++) {
                phases[p][k] /= (float) sum;
            }
        }
        buf = new float[4 * half + 4096];
        bufLen = half;           // H zeros before the first sample (indices -H .. -1)
        bufStart = -half;
    }

    /** Input sample rate. */
    public int inRate() {
        return inRate;
    }

    /** Output sample rate. */
    public int outRate() {
        return outRate;
    }

    /** Converts a whole clip at once. */
    public static PcmAudio resample(PcmAudio audio, int outRate) {
        if (audio.sampleRate() == outRate) {
            return audio;
        }
        Resampler r = new Resampler(audio.sampleRate(), outRate);
        short[] a = r.process(audio.samples(), 0, audio.length());
        short[] b = r.flush();
        short[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return new PcmAudio(all, outRate);
    }

    /** Feeds {@code len} samples and returns the output samples that are now complete. */
    public short[] process(short[] in, int off, int len) {
        ensure(len);
        for (int i = 0; i < len; i++) {
            buf[bufLen++] = in[off + i];
        }
        inputCount += len;
        return emit(inputCount);
    }

    /** Ends the stream: returns the remaining output samples (padding with silence) and resets. */
    public short[] flush() {
        ensure(half + 1);
        for (int i = 0; i <= half; i++) {
            buf[bufLen++] = 0;
        }
        short[] out = emit(inputCount);
        reset();
        return out;
    }

    /** Forgets all buffered input (e.g. after playback was stopped). */
    public void reset() {
        Arrays.fill(buf, 0f);
        bufLen = half;
        bufStart = -half;
        inputCount = 0;
        nextOut = 0;
    }

    private short[] emit(long limitInput) {
        long available = bufStart + bufLen;   // absolute index one past the last buffered sample
        // outputs exist for positions t = n*M/L < limitInput, and need x up to floor(t)+H
        long maxByInput = ceilDiv(limitInput * up, down);
        int count = 0;
        short[] out = new short[(int) Math.max(16, Math.min(maxByInput - nextOut, 1 << 20))];
        while (nextOut < maxByInput) {
            long p = nextOut * down;
            long i = p / up;
            if (i + half > available - 1) {
                break;
            }
            float[] h = phases[(int) (p % up)];
            int base = (int) (i - half + 1 - bufStart);
            double acc = 0;
            for (int k = 0; k < h.length; k++) {
                acc += h[k] * buf[base + k];
            }
            if (count == out.length) {
                out = Arrays.copyOf(out, out.length * 2 + 16);
            }
            out[count++] = clip(acc);
            nextOut++;
        }
        // drop input no longer needed: keep from floor(next t) - H + 1
        long keepFrom = (nextOut * down) / up - half + 1;
        int drop = (int) Math.max(0, Math.min(bufLen, keepFrom - bufStart));
        if (drop > 0) {
            System.arraycopy(buf, drop, buf, 0, bufLen - drop);
            bufLen -= drop;
            bufStart += drop;
        }
        return count == out.length ? out : Arrays.copyOf(out, count);
    }

    private void ensure(int extra) {
        if (bufLen + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, bufLen + extra));
        }
    }

    private static short clip(double v) {
        long r = Math.round(v);
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r));
    }

    private static double sinc(double x) {
        if (Math.abs(x) < 1e-9) {
            return 1.0;
        }
        double px = Math.PI * x;
        return Math.sin(px) / px;
    }

    private static double blackman(double x) {
        if (Math.abs(x) >= 1) {
            return 0;
        }
        return 0.42 + 0.5 * Math.cos(Math.PI * x) + 0.08 * Math.cos(2 * Math.PI * x);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
