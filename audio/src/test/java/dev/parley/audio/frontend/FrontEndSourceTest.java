package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.AudioSource;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * The reduction the listen loop reads sets each cleaned frame against the capture it stands for: with nothing played,
 * Parley's canceller passes the microphone through unchanged, only {@link AudioFrontEnd#latencySamples()} later, so
 * a voice that starts out of silence is reduced by nothing, from its first frame.
 */
class FrontEndSourceTest {
    private static final int RATE = AudioFrontEnd.SAMPLE_RATE;
    /** Not a whole number of 10 ms frames: the front end holds a remainder back for its next frame. */
    private static final int FRAME = 250;

    /** Frames of a captured signal, then the end (a microphone's frames, as recorded). */
    private static final class Captured implements AudioSource {
        private final Deque<PcmAudio> frames = new ArrayDeque<>();
        /** Counted down once the stream has ended (the front end read past its last frame). */
        final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);

        Captured(short[] samples) {
            for (int p = 0; p + FRAME <= samples.length; p += FRAME) {
                frames.add(new PcmAudio(java.util.Arrays.copyOfRange(samples, p, p + FRAME), RATE));
            }
        }

        @Override
        public int sampleRate() {
            return RATE;
        }

        @Override
        public synchronized PcmAudio read() {
            PcmAudio f = frames.poll();
            if (f == null) {
                ended.countDown();
            }
            return f;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aVoiceThatRisesAndFallsIsNotReducedWhileNothingPlays() throws Exception {
        // 40 ms loud, 40 ms 20 dB softer, over and over: syllables, as far as levels go
        short[] mic = new short[RATE];
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < mic.length; i++) {
            double amplitude = (i / 640) % 2 == 0 ? 8000 : 800;
            mic[i] = (short) Math.rint(amplitude * (Math.sin(i * 0.07) + 0.1 * r.nextGaussian()));
        }
        try (WebRtcFrontEnd fe = WebRtcFrontEnd.linearOnly(FrontEndSettings.defaults(), System::nanoTime, "test");
             FrontEndSource source = new FrontEndSource(new Captured(mic), fe, 1000)) {
            assertTrue(fe.latencySamples() > FRAME / 2, "the linear canceller holds the microphone back by "
                    + fe.latencySamples() + " samples");
            double worst = 0;
            int frames = 0;
            PcmAudio f;
            while ((f = source.read()) != null) {
                if (++frames > 5) {     // past the start, when the output was still the silence before the capture
                    worst = Math.max(worst, Math.abs(source.lastReductionDb()));
                }
            }
            assertTrue(frames >= 45, frames + " frames came out");
            // against the frame captured last, the steps measured up to 20 dB either way (the capture's rise set
            // against the output's soft stretch before it); against the capture of the same moment, nothing
            assertTrue(worst < 1, "a voice with nothing played was reduced by up to " + worst + " dB");
        }
    }

    @Test
    void everyFrameOfAStreamThatEndedIsStillRead() throws Exception {
        short[] mic = new short[RATE];
        java.util.Arrays.fill(mic, (short) 1000);
        Captured captured = new Captured(mic);
        try (WebRtcFrontEnd fe = WebRtcFrontEnd.linearOnly(FrontEndSettings.defaults(), System::nanoTime, "test");
             FrontEndSource source = new FrontEndSource(captured, fe, 1000)) {
            assertTrue(captured.ended.await(10, java.util.concurrent.TimeUnit.SECONDS), "the stream never ended");
            int samples = 0;
            PcmAudio f;
            while ((f = source.read()) != null) {
                samples += f.length();
            }
            // 64 blocks of 250 samples in 10 ms frames: 100 of them; the stream's end dropped those not yet read
            assertEquals(RATE / 160 * 160, samples, "samples read after the stream ended");
            FrameCost cost = source.frameCost();
            assertEquals(RATE / 160, cost.frames(), "each 10 ms frame's cost is counted once");
            assertTrue(cost.percentileMicros(0.5) > 0 && cost.percentileMicros(0.5) <= cost.percentileMicros(0.99));
        }
    }

    @Test
    void theHistoryGivesTheLevelOfTheSpanAskedFor() {
        CaptureHistory h = new CaptureHistory(1000);
        short[] loud = new short[400];
        java.util.Arrays.fill(loud, (short) 16384);
        h.add(loud);
        h.add(new short[300]);
        assertEquals(-6.02, h.levelDbfs(100, 400), 0.01, "the 300 loud samples before the quiet ones");
        assertEquals(-120, h.levelDbfs(400, 700), 1e-9, "the quiet ones");
        assertEquals(-7.27, h.levelDbfs(100, 500), 0.01, "three quarters of them loud");
        assertEquals(-120, h.levelDbfs(-200, -100), 1e-9, "before the start");
        assertEquals(-12.04, h.levelDbfs(300, 700), 0.01, "a quarter of them loud");
        h.add(new short[1000]);
        assertEquals(-120, h.levelDbfs(100, 400), 1e-9, "older than the ring");
    }
}
