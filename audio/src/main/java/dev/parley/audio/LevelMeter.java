package dev.parley.audio;

/**
 * Signal level of PCM audio as RMS in dBFS (0 dBFS = a full-scale square wave; digital silence
 * gives {@link #SILENCE_DBFS}). Used by the UI's level meter and by the voice activity detector.
 */
public final class LevelMeter {
    /** The floor reported for digital silence. */
    public static final double SILENCE_DBFS = -120.0;

    private LevelMeter() {
    }

    /** RMS level of {@code samples[from, to)} in dBFS. */
    public static double rmsDbfs(short[] samples, int from, int to) {
        if (to <= from) {
            return SILENCE_DBFS;
        }
        double sum = 0;
        for (int i = from; i < to; i++) {
            double v = samples[i] / 32768.0;
            sum += v * v;
        }
        return dbfs(Math.sqrt(sum / (to - from)));
    }

    /** An RMS level (1 = full scale) in dBFS, {@link #SILENCE_DBFS} at most. */
    public static double dbfs(double rms) {
        return rms <= 1e-6 ? SILENCE_DBFS : Math.max(SILENCE_DBFS, 20 * Math.log10(rms));
    }

    /** RMS level of the whole block in dBFS. */
    public static double rmsDbfs(PcmAudio audio) {
        return rmsDbfs(audio.samples(), 0, audio.length());
    }
}
