package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The streaming FFT convolver against direct convolution. */
class BlockConvolverTest {
    @ParameterizedTest
    @CsvSource({"320, 5000, 2000", "320, 1, 700", "256, 300, 256", "7, 100, 50", "160, 16000, 3300"})
    void streamingBlocksEqualDirectConvolution(int block, int irLength, int signalLength) {
        SplittableRandom rnd = new SplittableRandom(block * 31L + irLength);
        float[] h = new float[irLength];
        for (int i = 0; i < irLength; i++) {
            h[i] = (float) ((rnd.nextDouble() * 2 - 1) * Math.exp(-3.0 * i / irLength));
        }
        float[] x = new float[signalLength];
        for (int i = 0; i < signalLength; i++) {
            x[i] = (float) (rnd.nextDouble() * 2 - 1);
        }
        double[] expected = new double[signalLength + irLength - 1];
        for (int i = 0; i < signalLength; i++) {
            for (int k = 0; k < irLength; k++) {
                expected[i + k] += (double) x[i] * h[k];
            }
        }
        BlockConvolver c = new BlockConvolver(h, block);
        float[] in = new float[block];
        float[] out = new float[block];
        double peak = 0;
        for (double e : expected) {
            peak = Math.max(peak, Math.abs(e));
        }
        for (int pos = 0; pos < expected.length; pos += block) {
            for (int i = 0; i < block; i++) {
                in[i] = pos + i < signalLength ? x[pos + i] : 0;
            }
            c.process(in, out);
            for (int i = 0; i < block && pos + i < expected.length; i++) {
                assertEquals(expected[pos + i], out[i], 1e-5 * Math.max(1, peak), "sample " + (pos + i));
            }
        }
        float[] whole = BlockConvolver.convolve(x, h);
        assertEquals(expected.length, whole.length);
        for (int i = 0; i < expected.length; i += 17) {
            assertEquals(expected[i], whole[i], 1e-5 * Math.max(1, peak), "offline sample " + i);
        }
    }
}
