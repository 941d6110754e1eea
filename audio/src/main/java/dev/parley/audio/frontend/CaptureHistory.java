package dev.parley.audio.frontend;

import dev.parley.audio.LevelMeter;

/**
 * The last samples captured, in a ring, so that a processed frame can be set against the captured audio it stands
 * for: {@link #levelDbfs(int, int)} is the level of {@code length} samples ending {@code lag} samples before the newest.
 * Not thread-safe: the front end's thread uses it.
 */
final class CaptureHistory {
    private final short[] ring;
    private long written;

    CaptureHistory(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("expected a positive capacity in samples but found " + capacity);
        }
        ring = new short[capacity];
    }

    void add(short[] samples) {
        for (short s : samples) {
            ring[(int) (written++ % ring.length)] = s;
        }
    }

    /**
     * RMS level, dBFS, of the {@code length} samples that end {@code lag} samples before the newest; samples not yet
     * captured (before the start) or older than the ring count as silence.
     */
    double levelDbfs(int length, int lag) {
        if (length <= 0) {
            return LevelMeter.SILENCE_DBFS;
        }
        long end = written - lag;
        double sum = 0;
        for (long i = end - length; i < end; i++) {
            if (i >= 0 && i >= written - ring.length) {
                double s = ring[(int) (i % ring.length)] / 32768.0;
                sum += s * s;
            }
        }
        double rms = Math.sqrt(sum / length);
        return rms <= 1e-6 ? LevelMeter.SILENCE_DBFS : Math.max(LevelMeter.SILENCE_DBFS, 20 * Math.log10(rms));
    }
}
