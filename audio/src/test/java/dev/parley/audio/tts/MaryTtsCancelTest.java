package dev.parley.audio.tts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.CancellationSignal;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A synthesis cancelled after its first chunk (a barge-in) leaves no MaryTTS vocoder thread behind.
 * MaryTTS vocodes on a thread that blocks forever on a full queue when nobody reads; before the fix,
 * every interrupted reply left one such thread and its audio buffers.
 */
class MaryTtsCancelTest {
    private static final int CANCELS = 5;
    private static final long SAFETY_NET_MS = 30_000; // not a timing assertion: a hung thread would never end
    private static MaryTtsSynthesizer tts;
    private static List<Thread> atStart;

    @BeforeAll
    static void start() throws Exception {
        tts = MaryTtsSynthesizer.start();
        // MaryTTS's start-up leaves one vocoder thread of its own (once per instance, not per synthesis)
        atStart = vocoderThreads();
    }

    @AfterAll
    static void stop() {
        if (tts != null) {
            tts.close();
        }
    }

    @Test
    void cancelledSynthesesLeaveNoVocoderThreads() throws Exception {
        String sentence = "This is a rather long sentence that the listener interrupts long before it ends, "
                + "so most of its audio is never read by anyone at all.";
        for (int i = 0; i < CANCELS; i++) {
            CancellationSignal cancel = new CancellationSignal();
            AtomicInteger chunks = new AtomicInteger();
            tts.synthesize(sentence, chunk -> {
                chunks.incrementAndGet();
                cancel.cancel();
            }, cancel);
            assertEquals(1, chunks.get(), "nothing is delivered after the cancel");
        }
        for (Thread t : vocoderThreads()) {
            t.join(SAFETY_NET_MS); // a producer ends right after handing over its end-of-stream mark
        }
        assertEquals(List.of(), vocoderThreads().stream().map(t -> Arrays.toString(t.getStackTrace())).toList(),
                "vocoder threads left behind by " + CANCELS + " cancelled syntheses");
        assertTrue(tts.synthesize("Still speaking.").length() > 0, "the synthesizer still works");
    }

    /** Live threads running MaryTTS's HTS vocoder producer, but those that were there after start-up. */
    private static List<Thread> vocoderThreads() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> atStart == null || !atStart.contains(e.getKey()))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().contains("HTSVocoder")))
                .map(java.util.Map.Entry::getKey)
                .toList();
    }
}
