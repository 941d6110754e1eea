package dev.parley.audio.vad;

import dev.parley.audio.PcmAudio;

/**
 * Where the speech of a clean recording is, read from the signal: from the first to the last 10 ms block whose
 * level is within 35 dB of the loudest block (the fixtures are single utterances on silence or a faint room).
 */
record SpeechSpan(int from, int to) {
    private static final int BLOCK = 160;

    static SpeechSpan of(PcmAudio clean) {
        int blocks = clean.length() / BLOCK;
        double[] level = new double[blocks];
        double max = -200;
        for (int b = 0; b < blocks; b++) {
            level[b] = 20 * Math.log10(Math.max(1e-9, TestNoise.rms(clean.slice(b * BLOCK, (b + 1) * BLOCK)) / 32768));
            max = Math.max(max, level[b]);
        }
        int first = -1;
        int last = -1;
        for (int b = 0; b < blocks; b++) {
            if (level[b] >= max - 35) {
                if (first < 0) {
                    first = b;
                }
                last = b;
            }
        }
        if (first < 0) {
            throw new IllegalArgumentException("expected speech but found silence");
        }
        return new SpeechSpan(first * BLOCK, (last + 1) * BLOCK);
    }

    double fromMillis() {
        return from * 1000.0 / TestNoise.RATE;
    }

    double toMillis() {
        return to * 1000.0 / TestNoise.RATE;
    }
}
