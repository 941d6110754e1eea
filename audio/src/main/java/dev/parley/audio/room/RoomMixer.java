package dev.parley.audio.room;

/**
 * Mixes what a microphone hears from its parts at requested levels: the user's speech at
 * {@code speechDbfs} (active level), the loudspeaker's echo {@code echoDb} relative to the speech
 * (active level of each) and a noise bed {@code snrDb} below the speech (RMS of the bed).
 */
public final class RoomMixer {
    private RoomMixer() {
    }

    /** The levels of one mix. */
    public record Levels3(double speechDbfs, double echoDb, double snrDb) {
        public Levels3 {
            if (!(speechDbfs <= 0 && speechDbfs > -80) || !Double.isFinite(echoDb) || !Double.isFinite(snrDb)) {
                throw new IllegalArgumentException("expected a speech level of -80..0 dBFS and finite echo and SNR levels but found "
                        + speechDbfs + ", " + echoDb + ", " + snrDb);
            }
        }

        /** The echo's active level at the microphone, dBFS. */
        public double echoDbfs() {
            return speechDbfs + echoDb;
        }

        /** The noise bed's RMS level at the microphone, dBFS. */
        public double noiseDbfs() {
            return speechDbfs - snrDb;
        }
    }

    /** A mix and its scaled parts (each as long as the mix; missing parts are silent). */
    public record Mix(float[] mic, float[] speech, float[] echo, float[] noise) {
    }

    /** Gain that brings speech-like {@code x} to an active level of {@code dbfs}. */
    public static double speechGain(float[] x, int rate, double dbfs) {
        return Levels.gain(Levels.activeDb(x, rate), dbfs);
    }

    /** Gain that brings the noise bed {@code x} to an RMS of {@code dbfs}. */
    public static double noiseGain(float[] x, double dbfs) {
        return Levels.gain(Levels.rmsDb(x), dbfs);
    }

    /**
     * Scales {@code speech} and {@code echo} (both as heard at the microphone, any may be null) and
     * {@code noise} (looped or cut to the mix length) and sums them.
     */
    public static Mix mix(float[] speech, float[] echo, float[] noise, Levels3 levels, int rate) {
        int n = Math.max(speech == null ? 0 : speech.length, echo == null ? 0 : echo.length);
        if (n == 0) {
            throw new IllegalArgumentException("expected speech or echo to mix but found neither");
        }
        float[] s = scaled(speech, n, speech == null ? 0 : speechGain(speech, rate, levels.speechDbfs()));
        float[] e = scaled(echo, n, echo == null ? 0 : speechGain(echo, rate, levels.echoDbfs()));
        float[] z = new float[n];
        if (noise != null && noise.length > 0) {
            double g = noiseGain(noise, levels.noiseDbfs());
            for (int i = 0; i < n; i++) {
                z[i] = (float) (noise[i % noise.length] * g);
            }
        }
        float[] mic = new float[n];
        for (int i = 0; i < n; i++) {
            mic[i] = s[i] + e[i] + z[i];
        }
        return new Mix(mic, s, e, z);
    }

    private static float[] scaled(float[] x, int n, double g) {
        float[] out = new float[n];
        if (x != null) {
            for (int i = 0; i < x.length; i++) {
                out[i] = (float) (x[i] * g);
            }
        }
        return out;
    }
}
