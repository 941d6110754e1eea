package dev.parley.audio.frontend;

import dev.parley.audio.LevelMeter;

/**
 * The last samples captured, in a ring, so that a processed frame can be set against the captured audio it stands
 * for: {@link #levelDbfs(long, long)} is the level of a span of them by position.
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
     * RMS level, dBFS, of the captured samples {@code [from, to)}, counted from the first one ever added; samples not
     * yet captured, before the start or older than the ring count as silence.
     */
    double levelDbfs(long from, long to) {
        if (to <= from) {
            return LevelMeter.SILENCE_DBFS;
        }
        double sum = 0;
        for (long i = Math.max(from, Math.max(0, written - ring.length)); i < Math.min(to, written); i++) {
            double s = ring[(int) (i % ring.length)] / 32768.0;
            sum += s * s;
        }
        return LevelMeter.dbfs(Math.sqrt(sum / (to - from)));
    }
}
