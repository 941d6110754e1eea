package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.RealTimeSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Speculative replies: a pause shorter than the end-of-turn silence starts a reply that nobody hears
 * and the user's next word withdraws (the responder retracts it); at the real end of the turn the
 * reply started on the same words is confirmed and heard. Paced like a microphone (about 4 s).
 */
class SpeculativeTurnTest {
    private static final int RATE = 16_000;

    /** A fixed-text responder that can retract (as the engine's can): it records what it was asked. */
    private static final class RecordingResponder implements Responder {
        final List<String> asked = new CopyOnWriteArrayList<>();
        final AtomicInteger retracted = new AtomicInteger();

        @Override
        public void respond(String userText, java.util.function.Consumer<String> out, CancellationSignal cancel) {
            asked.add(userText);
            out.accept("Okay, noted.");
        }

        @Override
        public boolean canRetract() {
            return true;
        }

        @Override
        public void retract() {
            retracted.incrementAndGet();
        }
    }

    @Test
    void aShortPauseIsWithdrawnAndTheTurnsEndIsConfirmed(@TempDir Path dir) throws Exception {
        PcmAudio hello = trim(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/09-hello.wav"), RATE));
        PcmAudio goodbye = trim(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/10-goodbye.wav"), RATE));
        // 420 ms: past the 250 ms that start a speculative reply, short of the 600 ms that end the turn
        // (minus the 100 ms the detector needs to hear "goodbye" start).
        PcmAudio said = PcmAudio.silence(300, RATE).concat(hello).concat(PcmAudio.silence(420, RATE)).concat(goodbye)
                .concat(PcmAudio.silence(1500, RATE));
        RecordingResponder responder = new RecordingResponder();
        BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        MaryTtsSynthesizer tts = MaryTtsSynthesizer.start();
        VoicePipeline p = new VoicePipeline(new RealTimeSource(new WavFileSource(said, 20)),
                VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant")), responder, tts,
                new WavFileSink(dir.resolve("out.wav"), tts.sampleRate()), VoiceSettings.defaults());
        try (p) {
            p.addListener(new VoiceListener() {
                @Override
                public void turnFinished(Exchange e) {
                    finished.add(e);
                }
            });
            p.start();
            Exchange e = finished.poll(60, TimeUnit.SECONDS);
            assertTrue(e != null, "no turn finished; the responder was asked " + responder.asked);
            assertTrue(e.userText().startsWith("hello") && e.userText().endsWith("goodbye"), e.userText());
            assertEquals("Okay, noted.", e.replyText());
            assertTrue(!e.interrupted() && e.latency().complete() && e.latency().ordered(), e.latency().toString());
            assertEquals(List.of("hello", e.userText()), responder.asked,
                    "a reply was started on the words before the pause, then on the whole turn");
            assertEquals(1, responder.retracted.get(), "the reply started in the pause was retracted");
            assertEquals(new Speculation(2, 1), p.speculation());
            assertEquals(1, p.history().size(), "the withdrawn reply is not in the history");
            assertTrue(finished.poll(1, TimeUnit.SECONDS) == null, "one turn only");
        }
    }

    /** Cuts the recording's leading and trailing silence (frames under -46 dBFS, the detector's stop level). */
    private static PcmAudio trim(PcmAudio a) {
        int frame = RATE / 50;
        int first = -1;
        int last = -1;
        for (int i = 0; i + frame <= a.length(); i += frame) {
            if (LevelMeter.rmsDbfs(a.slice(i, i + frame)) >= -46) {
                first = first < 0 ? i : first;
                last = i + frame;
            }
        }
        return a.slice(first, last);
    }
}
