package dev.parley.audio.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Coverage-guided fuzzing of the WAV reader (Jazzer; see docs/reliability.md). Any bytes either
 * decode to mono samples consistent with the format found, or are refused with an
 * {@link IOException}; any other exception, a hang or an out-of-memory is a finding.
 */
class WavReaderFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void decodeAnyBytes(byte[] bytes) {
        WavReader.WavData data;
        try {
            data = WavReader.decode(bytes, "fuzz.wav");
        } catch (IOException refused) {
            assertTrue(refused.getMessage().startsWith("fuzz.wav: expected"), refused.getMessage());
            return;
        }
        WavFormat f = data.format();
        assertEquals(f.sampleRate(), data.mono().sampleRate());
        assertTrue(data.mono().length() > 0, "decoded audio without samples");
        // every frame came from the file: frames * frame size fit in what followed the headers
        assertTrue((long) data.mono().length() * f.frameBytes() <= bytes.length,
                () -> data.mono().length() + " frames of " + f.frameBytes() + " bytes from " + bytes.length + " bytes");
    }
}
