package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.room.Biquad;
import java.util.SplittableRandom;

/**
 * The soft sound Parley plays once, a second after full-duplex listening starts: a breath of noise, {@value #MILLIS} ms,
 * tilted like speech's spectrum (150 Hz to 7 kHz) at {@value #LEVEL_DBFS} dBFS, about 12 dB under the
 * synthesized voice.
 *
 * <p>It is there for the echo canceller: from a reply alone the canceller learns the room's echo path only in the
 * bands the first words happen to fill, and until it has learnt it the loop cannot tell the user's voice from the
 * echo's rest, so it does not listen over the first seconds of the first reply (measured in {@code bench duplex}'s
 * five rooms: the canceller counted as converged 0.7-3.4 s into the first reply, and a barge-in 0.6 s into it was
 * lost in most of them). Noise fills every band at once: after this cue the linear canceller removed 16.7-24.7 dB of the
 * first reply's echo over its first 0.6 s in four of those rooms (against 4.3-6.3 dB without it), 4.1 dB in the
 * kitchen (against none): {@code ListeningCueTest}, docs/audio.md ("The listening cue").
 *
 * <p>The sound is the same every time (a fixed seed).
 */
public final class ListeningCue {
    /** Its length. */
    public static final int MILLIS = 600;
    /**
     * How long after listening starts it plays: the loop first hears the room's quiet for a second, the history its
     * floor needs (a bed of voices then makes no turn). Measured in {@code bench duplex}: played at once, the loop,
     * which does not listen over the cue, came out of it knowing nothing of the room, and in two conditions of ten
     * (babble at SNR 10) the bed made a turn the moment the cue ended, in every run.
     */
    public static final long DELAY_MILLIS = 1100;
    /** RMS level of its body, dBFS. */
    public static final double LEVEL_DBFS = -26;
    private static final int RATE = 16_000;
    private static final int ATTACK_MILLIS = 80;
    private static final int RELEASE_MILLIS = 200;
    private static final double LOW_HZ = 150;
    private static final double HIGH_HZ = 7000;
    private static final double TILT_HZ = 1000;
    /** The low-pass's gain back to about unity in its pass band (its output of white noise is far quieter). */
    private static final double LOW_GAIN = 4;
    private static final double WHITE_SHARE = 0.25;
    private static final double BUTTERWORTH_Q = Math.sqrt(0.5);

    private ListeningCue() {
    }

    /** The cue at 16 kHz, mono. */
    public static PcmAudio sound() {
        int n = RATE * MILLIS / 1000;
        double[] x = tiltedNoise(n, new SplittableRandom(0x5041524CL));
        bandPass(x);
        int attack = RATE * ATTACK_MILLIS / 1000;
        int release = RATE * RELEASE_MILLIS / 1000;
        double body = 0;
        int bodyCount = 0;
        for (int i = attack; i < n - release; i++) {
            body += x[i] * x[i];
            bodyCount++;
        }
        double gain = Math.pow(10, LEVEL_DBFS / 20) * 32768 / Math.sqrt(body / bodyCount);
        short[] out = new short[n];
        for (int i = 0; i < n; i++) {
            double env = i < attack ? raisedCosine((double) i / attack)
                    : i >= n - release ? raisedCosine((double) (n - 1 - i) / release) : 1;
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.rint(x[i] * gain * env)));
        }
        return new PcmAudio(out, RATE);
    }

    /** 0 to 1 as {@code t} goes from 0 to 1, smoothly. */
    private static double raisedCosine(double t) {
        return 0.5 - 0.5 * Math.cos(Math.PI * t);
    }

    /**
     * White noise tilted like speech's long-term spectrum: a one-pole low-pass at {@value #TILT_HZ} Hz (falling 6 dB
     * an octave above it) plus a quarter of the white noise, so the upper bands are not starved (about 12 dB under the
     * lowest at 7 kHz).
     */
    private static double[] tiltedNoise(int n, SplittableRandom random) {
        double a = Math.exp(-2 * Math.PI * TILT_HZ / RATE);
        double low = 0;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double w = random.nextDouble(-1, 1);
            low = a * low + (1 - a) * w;
            x[i] = low * LOW_GAIN + WHITE_SHARE * w;
        }
        return x;
    }

    /** Second-order high-pass at {@value #LOW_HZ} Hz and low-pass at {@value #HIGH_HZ} Hz (Butterworth). */
    private static void bandPass(double[] x) {
        Biquad high = Biquad.highPass(LOW_HZ, BUTTERWORTH_Q, RATE);
        Biquad low = Biquad.lowPass(HIGH_HZ, BUTTERWORTH_Q, RATE);
        for (int i = 0; i < x.length; i++) {
            x[i] = low.step(high.step(x[i]));
        }
    }
}
