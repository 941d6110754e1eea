package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import org.junit.jupiter.api.Test;

/** The pass-through front end: what "all off" gives, and what the loop falls back to without WebRTC's library. */
class FrontEndFallbackTest {
    @Test
    void allOffIsAPassThroughThatCancelsNoEcho() {
        try (AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.off())) {
            assertTrue(fe instanceof PassThroughFrontEnd, fe.getClass().toString());
            assertFalse(fe.cancelsEcho());
            assertFalse(fe.echoConverged());
            PcmAudio a = new PcmAudio(new short[] {1, -2, 3, 400, -500}, 16_000);
            assertArrayEquals(a.samples(), fe.process(a).samples());
            assertFalse(fe.stats().echoCancelling());
            assertTrue(fe.description().contains("half-duplex"), fe.description());
        }
    }

    @Test
    void theReasonTheLibraryCouldNotLoadIsSaid() {
        PassThroughFrontEnd fe = new PassThroughFrontEnd("echo cancellation unavailable (x): half-duplex");
        assertEquals("echo cancellation unavailable (x): half-duplex", fe.description());
        assertFalse(fe.cancelsEcho());
    }

    @Test
    void framesOfAnyLengthAreProcessedInTenMillisecondFrames() {
        try (AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults().withEchoCancellation(false))) {
            if (!(fe instanceof WebRtcFrontEnd)) {
                return;     // no native library here: the pass-through returns its input as it is
            }
            assertEquals(0, fe.process(new PcmAudio(new short[100], 16_000)).length(), "100 samples wait for 60 more");
            assertEquals(160, fe.process(new PcmAudio(new short[100], 16_000)).length());
            assertEquals(480, fe.process(new PcmAudio(new short[500], 16_000)).length());
            assertThrows(IllegalArgumentException.class, () -> fe.process(new PcmAudio(new short[480], 48_000)));
        }
    }

    @Test
    void noiseSuppressionLevelsParseAndBadOnesSayWhatWasExpected() {
        assertEquals(NoiseSuppression.VERY_HIGH, NoiseSuppression.parse("very-high"));
        assertEquals(NoiseSuppression.OFF, NoiseSuppression.parse("OFF"));
        assertEquals(NoiseSuppression.AUTO, NoiseSuppression.parse(" Auto "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NoiseSuppression.parse("max"));
        assertTrue(e.getMessage().contains("off, auto, low, moderate, high, very-high") && e.getMessage().contains("max"),
                e.getMessage());
    }

    @Test
    void echoCancellersParseAndBadOnesSayWhatWasExpected() {
        assertEquals(EchoCanceller.LINEAR, EchoCanceller.parse("on"));
        assertEquals(EchoCanceller.LINEAR, EchoCanceller.parse(" Linear "));
        assertEquals(EchoCanceller.AEC3, EchoCanceller.parse("AEC3"));
        assertEquals(EchoCanceller.OFF, EchoCanceller.parse("off"));
        assertEquals(EchoCanceller.LINEAR, FrontEndSettings.defaults().echoCanceller(), "Parley's canceller by default");
        assertEquals(EchoCanceller.OFF, FrontEndSettings.defaults().withEchoCancellation(false).echoCanceller());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EchoCanceller.parse("webrtc"));
        assertTrue(e.getMessage().contains("on, aec3, off") && e.getMessage().contains("webrtc"), e.getMessage());
    }

    @Test
    void withoutWebRtcsLibraryParleysCancellerStillRunsAndAec3FallsBackToHalfDuplex() {
        java.util.function.Supplier<AudioFrontEnd> missing = () -> {
            throw new UnsatisfiedLinkError("libpulse.so.0: cannot open shared object file");
        };
        try (AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults(), missing)) {
            assertTrue(fe.cancelsEcho(), fe.description());
            assertTrue(fe.description().contains("linear echo canceller") && fe.description().contains("libpulse.so.0")
                    && fe.description().contains("no high-pass filter"), fe.description());
        }
        try (AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults().withEchoCanceller(EchoCanceller.AEC3), missing)) {
            assertTrue(fe instanceof PassThroughFrontEnd, fe.getClass().toString());
            assertTrue(fe.description().contains("half-duplex") && fe.description().contains("libpulse.so.0"),
                    fe.description());
        }
    }

    /** The linear canceller alone, as it runs without WebRTC's library, on the synthetic room of the WebRTC tests. */
    @Test
    void theLinearCancellerAloneRemovesTheEcho() throws Exception {
        short[] far = WebRtcFrontEndTest.farSpeech(10);
        SyntheticRoom room = new SyntheticRoom(40, 300, 7);
        short[] mic = SyntheticRoom.mix(room.echo(far, 0.3), new short[0], 0, 1.0);
        short[] out;
        try (AudioFrontEnd fe = WebRtcFrontEnd.linearOnly(FrontEndSettings.defaults(),
                WebRtcFrontEndTest.CLOCK::get, "test")) {
            out = WebRtcFrontEndTest.run(fe, far, mic);
            assertTrue(fe.echoConverged(), fe.stats().toString());
            assertTrue(fe.stats().echoCancelling() && fe.stats().erleDb() > 10, fe.stats().toString());
        }
        double in = SyntheticRoom.rms(mic, 4 * 16_000, 9 * 16_000);
        double left = SyntheticRoom.rms(out, 4 * 16_000, 9 * 16_000);
        assertTrue(WebRtcFrontEndTest.db(in / left) >= 20, "echo fell by " + WebRtcFrontEndTest.db(in / left) + " dB");
    }

    /**
     * The canceller counts as converged only on what it did to echo that reached the microphone: measured in the
     * duplex benchmark's kitchen (120 ms of latency), the 10 dB over the first 300 ms of playback were counted on the
     * room's noise before the echo came, the first echo then passed nearly untouched (0.5-2 dB) and looked like the
     * user's voice to the loop. Here the echo comes 400 ms after the playback starts (beyond the filter's 320 ms, so
     * the canceller cannot take it off), over a quiet room's noise: 40 frames of playback with only the noise came
     * first, and the code before counted convergence on them (at 400 ms).
     */
    @Test
    void convergenceWaitsForTheEchoToArrive() throws Exception {
        short[] far = WebRtcFrontEndTest.farSpeech(6);
        int latency = 400;
        SyntheticRoom room = new SyntheticRoom(latency, 600, 7);
        double[] echo = room.echo(far, 0.5);
        java.util.Random r = new java.util.Random(3);
        short[] mic = new short[far.length];
        for (int i = 0; i < mic.length; i++) {
            mic[i] = (short) Math.max(-32768, Math.min(32767, Math.round(echo[i] + 30 * r.nextGaussian())));
        }
        int piece = 320;
        int firstEcho = latency * 16;
        int convergedAt = -1;
        try (AudioFrontEnd fe = WebRtcFrontEnd.linearOnly(FrontEndSettings.defaults(),
                WebRtcFrontEndTest.CLOCK::get, "test")) {
            int rendered = 0;
            for (int pos = 0; pos + piece <= mic.length; pos += piece) {
                while (pos > 0 && rendered < far.length && rendered < pos + 3 * piece) {
                    fe.played(new PcmAudio(java.util.Arrays.copyOfRange(far, rendered, rendered + piece), 16_000));
                    rendered += piece;
                }
                WebRtcFrontEndTest.CLOCK.addAndGet(20_000_000L);
                fe.process(new PcmAudio(java.util.Arrays.copyOfRange(mic, pos, pos + piece), 16_000));
                if (convergedAt < 0 && fe.echoConverged()) {
                    convergedAt = pos + piece;
                }
            }
        }
        assertTrue(convergedAt < 0 || convergedAt > firstEcho + WebRtcFrontEnd.LINEAR_CONVERGENCE_FRAMES * 160,
                "converged after " + (convergedAt - piece) / 16 + " ms, the echo came at " + latency + " ms");
    }
}
