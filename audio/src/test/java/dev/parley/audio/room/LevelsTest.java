package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Where speech begins and ends in a recording: its first and last frames within 30 dB of the loudest. */
class LevelsTest {
    private static final int RATE = 16_000;

    @Test
    void onsetAndEndAreTheFirstAndLastActiveFramesNotTheQuietTail() {
        // 0.5 s of silence, 1 s of a loud tone, 0.3 s of it 20 dB down (a soft last syllable: still speech), 0.2 s 40 dB
        // down (the room's murmur after it: not speech), 0.5 s of silence
        float[] x = new float[RATE * 5 / 2];
        for (int i = RATE / 2; i < RATE * 2; i++) {
            double a = i < RATE * 3 / 2 ? 0.5 : i < RATE * 18 / 10 ? 0.05 : 0.005;
            x[i] = (float) (a * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        assertEquals(RATE / 2, Levels.onset(x, RATE));
        assertEquals(RATE * 18 / 10, Levels.end(x, RATE), "the end of the soft syllable, before the murmur");
        assertEquals(-1, Levels.end(new float[RATE], RATE), "silence has no end of speech");
    }
}
