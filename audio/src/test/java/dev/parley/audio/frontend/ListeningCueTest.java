package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.playback.ListeningCue;
import dev.parley.audio.room.BlockConvolver;
import dev.parley.audio.room.Fft;
import dev.parley.audio.room.ImageSourceRir;
import dev.parley.audio.room.ImpulseResponse;
import dev.parley.audio.room.RoomAssets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The listening cue against the linear canceller in the duplex benchmark's five rooms: the first reply's echo, set
 * against the same reply with no cue before it. Levels as {@code bench duplex} at echo +6 dB and SNR 10: the reply's
 * echo at -20 dBFS, the room's noise at -36 dBFS, the cue played at its own level through the same path.
 */
class ListeningCueTest {
    private static final int RATE = 16_000;
    /** The start of the reply the barge-ins must be heard over (the benchmark's first barge-in comes 0.58 s in). */
    private static final double EARLY_SECONDS = 0.6;

    @Test
    void theCueIsShortSoftAndFillsTheSpeechBand() {
        PcmAudio cue = ListeningCue.sound();
        assertEquals(RATE, cue.sampleRate());
        assertEquals(ListeningCue.MILLIS, cue.durationMillis(), 1);
        short[] s = cue.samples();
        double body = LevelMeter.rmsDbfs(s, RATE / 10, s.length - RATE / 5);
        assertEquals(ListeningCue.LEVEL_DBFS, body, 0.5, "level of the cue's body");
        int peak = 0;
        for (short v : s) {
            peak = Math.max(peak, Math.abs(v));
        }
        assertTrue(peak < 32767 / 2, "peak " + peak + ": far from clipping");
        assertTrue(Math.abs(s[0]) < 200 && Math.abs(s[s.length - 1]) < 200, "it fades in and out, no click");
        // octave bands from 250 Hz to 4 kHz: none more than 15 dB under the loudest (a noise, not a tone)
        double[] bands = octaves(s, new double[] {250, 500, 1000, 2000, 4000});
        double loudest = Double.NEGATIVE_INFINITY;
        for (double b : bands) {
            loudest = Math.max(loudest, b);
        }
        for (int i = 0; i < bands.length; i++) {
            assertTrue(bands[i] >= loudest - 15, "octave " + i + " at " + bands[i] + " dB, the loudest at " + loudest);
        }
    }

    @Test
    void afterTheCueTheCancellerTakesTheFirstReplysEchoDownFromItsStart() throws Exception {
        SharedFixtures.require("vosk/wav");
        short[] reply = WebRtcFrontEndTest.farSpeech(3);
        short[] cue = ListeningCue.sound().samples();
        ImageSourceRir rirs = new ImageSourceRir(RATE);
        int deep = 0;
        for (RoomAssets.Asset room : RoomAssets.rooms()) {
            ImpulseResponse ir = rirs.render(room.echoPath());
            double cold = earlyErle(ir, new short[0], reply);
            double primed = earlyErle(ir, cue, reply);
            String name = room.echoPath().name();
            System.out.printf("%s: first %.1f s of the first reply's echo: %.1f dB removed without the cue, %.1f dB"
                    + " after it%n", name, EARLY_SECONDS, cold, primed);
            assertTrue(primed >= cold + 4, name + ": " + primed + " dB after the cue, " + cold + " without it");
            if (primed >= 15) {
                deep++;
            }
        }
        // the kitchen (120 ms of latency, 0.65 s of reverberation) gets 4 dB after the cue where it gets none without
        assertTrue(deep >= 4, deep + " of 5 rooms had 15 dB of the first reply's echo removed after the cue");
    }

    /**
     * Plays {@code cue}, a second of silence and {@code reply} through {@code ir} into a noisy microphone, and returns
     * how much of the echo the canceller removed over the first {@value #EARLY_SECONDS} s of the reply's echo, dB.
     */
    private static double earlyErle(ImpulseResponse ir, short[] cue, short[] reply) {
        int lead = cue.length == 0 ? 0 : cue.length + RATE;
        short[] far = new short[lead + reply.length];
        System.arraycopy(cue, 0, far, 0, cue.length);
        System.arraycopy(reply, 0, far, lead, reply.length);
        float[] wet = BlockConvolver.convolve(floats(far), ir.taps());
        float[] replyWet = BlockConvolver.convolve(floats(reply), ir.taps());
        // the reply's echo at -20 dBFS (RMS over the reply), the cue through the same gain
        double gain = Math.pow(10, -20 / 20.0) * 32768 / rms(replyWet, 0, reply.length);
        Random r = new Random(7);
        double noise = Math.pow(10, -36 / 20.0) * 32768;
        double[] echo = new double[far.length];
        double[] near = new double[far.length];
        short[] mic = new short[far.length];
        for (int i = 0; i < far.length; i++) {
            echo[i] = wet[i] * gain;
            near[i] = noise * r.nextGaussian();
            mic[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.rint(echo[i] + near[i])));
        }
        LinearEchoCanceller aec = new LinearEchoCanceller(RATE, 320, true);
        short[] out = LinearEchoCancellerTest.run(aec, far, mic);
        int from = lead + ir.leadingZeros();
        int to = from + (int) (EARLY_SECONDS * RATE);
        double in = 0;
        double left = 0;
        for (int i = from; i < to; i++) {
            double d = out[i] - near[i];
            in += echo[i] * echo[i];
            left += d * d;
        }
        return 10 * Math.log10(in / Math.max(left, 1));
    }

    /** Energy in the octave bands centred on {@code centres}, dB (one FFT over the whole cue). */
    private static double[] octaves(short[] s, double[] centres) {
        int n = Integer.highestOneBit(s.length) * 2;
        double[] re = new double[n];
        double[] im = new double[n];
        for (int i = 0; i < s.length; i++) {
            re[i] = s[i];
        }
        new Fft(n).forward(re, im);
        double[] out = new double[centres.length];
        for (int b = 0; b < centres.length; b++) {
            int lo = (int) (centres[b] / Math.sqrt(2) * n / RATE);
            int hi = (int) (centres[b] * Math.sqrt(2) * n / RATE);
            double e = 0;
            for (int k = lo; k < hi; k++) {
                e += re[k] * re[k] + im[k] * im[k];
            }
            out[b] = 10 * Math.log10(e + 1e-9);
        }
        return out;
    }

    private static double rms(float[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += (double) x[i] * x[i];
        }
        return Math.sqrt(s / (to - from));
    }

    private static float[] floats(short[] s) {
        float[] f = new float[s.length];
        for (int i = 0; i < s.length; i++) {
            f[i] = s[i];
        }
        return f;
    }
}
