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
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NoiseSuppression.parse("max"));
        assertTrue(e.getMessage().contains("off, low, moderate, high, very-high") && e.getMessage().contains("max"),
                e.getMessage());
    }
}
