package dev.parley.audio.tts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parley.audio.CancellationSignal;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The speaking rate changes how long MaryTTS's audio of a sentence lasts (its length, not time to compute it). */
class MaryTtsRateTest {
    private static final String SENTENCE = "The meeting moved to Thursday afternoon, right after lunch.";
    private static MaryTtsSynthesizer tts;

    @BeforeAll
    static void start() throws Exception {
        tts = MaryTtsSynthesizer.start();
    }

    @AfterAll
    static void stop() {
        if (tts != null) {
            tts.close();
        }
    }

    private static long samplesAt(double rate) throws Exception {
        tts.speakingRate(rate);
        AtomicLong samples = new AtomicLong();
        tts.synthesize(SENTENCE, chunk -> samples.addAndGet(chunk.samples().length), new CancellationSignal());
        return samples.get();
    }

    @Test
    void fasterSpeechIsShorterAndSlowerSpeechLonger() throws Exception {
        long normal = samplesAt(1.0);
        long fast = samplesAt(1.5);
        long slow = samplesAt(0.75);
        long normalAgain = samplesAt(1.0);
        assertEquals(normal / 1.5, fast, normal * 0.02, "1.5x");
        assertEquals(normal / 0.75, slow, normal * 0.02, "0.75x");
        assertEquals(normal, normalAgain, "back to the voice's own pace");
        assertThrows(IllegalArgumentException.class, () -> tts.speakingRate(3));
    }
}
