package dev.parley.audio.tts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** WSOLA keeps the pitch and changes the length by the rate. */
class TimeStretchTest {
    static final int RATE = 16_000;

    static short[] tone(double hz, double seconds) {
        short[] s = new short[(int) (RATE * seconds)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) Math.round(8000 * Math.sin(2 * Math.PI * hz * i / RATE));
        }
        return s;
    }

    /** Frequency from upward zero crossings, over the middle of the signal (away from the fades). */
    static double frequency(short[] s) {
        int from = s.length / 10;
        int to = s.length - s.length / 10;
        int first = -1;
        int last = -1;
        int crossings = 0;
        for (int i = from + 1; i < to; i++) {
            if (s[i - 1] < 0 && s[i] >= 0) {
                if (first < 0) {
                    first = i;
                } else {
                    crossings++;
                }
                last = i;
            }
        }
        return crossings * (double) RATE / (last - first);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.75, 1.25, 1.5, 2.0})
    void theLengthFollowsTheRateAndThePitchStays(double rate) {
        short[] in = tone(220, 1.0);
        short[] out = TimeStretch.stretch(in, RATE, rate);
        assertEquals(in.length / rate, out.length, in.length / rate * 0.01, "length at " + rate);
        assertEquals(220, frequency(out), 220 * 0.02, "pitch at " + rate);
        double rmsIn = rms(in);
        double rmsOut = rms(out);
        assertEquals(rmsIn, rmsOut, rmsIn * 0.15, "loudness at " + rate);
    }

    static double rms(short[] s) {
        double sum = 0;
        for (int i = s.length / 10; i < s.length - s.length / 10; i++) {
            sum += (double) s[i] * s[i];
        }
        return Math.sqrt(sum / (s.length * 0.8));
    }

    @Test
    void rateOneIsACopyAndBadRatesAreRefused() {
        short[] in = tone(300, 0.2);
        assertArrayEquals(in, TimeStretch.stretch(in, RATE, 1.0));
        assertThrows(IllegalArgumentException.class, () -> TimeStretch.stretch(in, RATE, 3));
        assertThrows(IllegalArgumentException.class, () -> TimeStretch.stretch(in, 0, 1.5));
        assertEquals(10, TimeStretch.stretch(new short[20], RATE, 2).length, "a clip shorter than two frames");
    }
}
