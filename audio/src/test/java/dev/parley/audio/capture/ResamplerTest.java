package dev.parley.audio.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The windowed-sinc resampler against signals whose correct output is known analytically. */
class ResamplerTest {
    private static PcmAudio sine(double hz, int rate, double seconds, double amp) {
        short[] s = new short[(int) (rate * seconds)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) Math.round(amp * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return new PcmAudio(s, rate);
    }

    @ParameterizedTest(name = "{0} Hz -> {1} Hz")
    @CsvSource({"48000,16000", "44100,16000", "22050,16000", "8000,16000", "16000,48000", "11025,16000"})
    void sineKeepsFrequencyAndLevel(int in, int out) {
        PcmAudio src = sine(440, in, 1.0, 10_000);
        PcmAudio res = Resampler.resample(src, out);
        assertEquals(Math.ceil(src.length() * (double) out / in), res.length(), 1.0);
        PcmAudio expected = sine(440, out, 1.0, 10_000);
        // compare away from the edges: error well below 1% of amplitude
        double maxErr = 0;
        for (int i = out / 10; i < out * 9 / 10; i++) {
            maxErr = Math.max(maxErr, Math.abs(res.samples()[i] - expected.samples()[i]));
        }
        assertTrue(maxErr < 60, "max error " + maxErr);
    }

    @Test
    void toneAboveTheNewNyquistIsRemoved() {
        PcmAudio src = sine(10_000, 48_000, 1.0, 10_000);      // above 8 kHz
        PcmAudio res = Resampler.resample(src, 16_000);
        double db = LevelMeter.rmsDbfs(res.samples(), 1600, 14400);
        assertTrue(db < -60, "aliased tone left at " + db + " dBFS");
    }

    @Test
    void streamingInOddBlocksEqualsWholeClip() {
        PcmAudio src = sine(300, 44_100, 0.5, 8000);
        PcmAudio whole = Resampler.resample(src, 16_000);
        Resampler r = new Resampler(44_100, 16_000);
        short[] acc = new short[0];
        int[] blocks = {1, 7, 100, 441, 3, 1000, 5000};
        int pos = 0;
        for (int b = 0; pos < src.length(); b++) {
            int n = Math.min(blocks[b % blocks.length], src.length() - pos);
            acc = append(acc, r.process(src.samples(), pos, n));
            pos += n;
        }
        acc = append(acc, r.flush());
        assertArrayEquals(whole.samples(), acc);
    }

    private static short[] append(short[] a, short[] b) {
        short[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
