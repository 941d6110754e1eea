package dev.parley.audio.tts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.text.SpeechNormalizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** MaryTTS speaks, the audio is resampled to 16 kHz and Vosk must hear the same words. */
class MaryTtsRoundTripTest {
    private static MaryTtsSynthesizer tts;
    private static VoskRecognizer vosk;

    @BeforeAll
    static void start() throws IOException {
        Path model = SharedFixtures.require("vosk/model-assistant");
        long t0 = System.nanoTime();
        tts = MaryTtsSynthesizer.start();
        System.out.printf("MaryTTS start-up incl. warm-up: %.0f ms (less when an earlier test class already started MaryTTS in this JVM)%n", (System.nanoTime() - t0) / 1e6);
        vosk = VoskRecognizer.load(model);
    }

    @AfterAll
    static void stop() {
        if (vosk != null) {
            vosk.close();
        }
        if (tts != null) {
            tts.close();
        }
    }

    @Test
    void spokenGrammarSentenceIsRecognizedBack() throws IOException {
        for (String sentence : List.of("what time is it", "set a timer for five minutes")) {
            PcmAudio speech = tts.synthesize(sentence);
            assertEquals(tts.sampleRate(), speech.sampleRate());
            assertTrue(speech.durationMillis() > 500 && speech.durationMillis() < 5000, speech.toString());
            PcmAudio at16k = Resampler.resample(speech, 16_000);
            assertEquals(sentence, vosk.transcribe(at16k).text());
        }
    }

    @Test
    void fasterAndSlowerSpeechIsStillRecognized() throws IOException {
        try {
            for (double rate : new double[] {1.3, 0.8}) {
                tts.speakingRate(rate);
                String sentence = "set a timer for five minutes";
                assertEquals(sentence, vosk.transcribe(Resampler.resample(tts.synthesize(sentence), 16_000)).text(),
                        "at " + rate + "x");
            }
        } finally {
            tts.speakingRate(1.0);
        }
    }

    @Test
    void normalizedNumbersAreSpokenAsWords() throws IOException {
        // "5" would be read by MaryTTS itself too; the normalizer makes it explicit, Vosk checks the words
        String spoken = new SpeechNormalizer().normalize("set a timer for 5 minutes");
        assertEquals("set a timer for five minutes", spoken);
        assertEquals(spoken, vosk.transcribe(Resampler.resample(tts.synthesize(spoken), 16_000)).text());
    }

    @Test
    void silenceGivesAnEmptyTranscript() throws IOException {
        assertEquals("", vosk.transcribe(PcmAudio.silence(2000, 16_000)).text());
    }

    @Test
    void audioArrivesInPiecesAndCancellationStopsIt() throws IOException {
        List<PcmAudio> chunks = new ArrayList<>();
        long t0 = System.nanoTime();
        long[] first = {0};
        tts.synthesize("Hello, this is a somewhat longer sentence, so that it is rendered in several pieces.", c -> {
            if (chunks.isEmpty()) {
                first[0] = System.nanoTime();
            }
            chunks.add(c);
        }, new CancellationSignal());
        long end = System.nanoTime();
        System.out.printf("MaryTTS time to first audio %.0f ms, whole sentence %.0f ms for %.0f ms of audio%n",
                (first[0] - t0) / 1e6, (end - t0) / 1e6, chunks.stream().mapToDouble(PcmAudio::durationMillis).sum());
        assertTrue(chunks.size() > 5, "expected many chunks, got " + chunks.size());
        assertTrue(chunks.stream().mapToDouble(LevelMeter::rmsDbfs).max().orElseThrow() > -30, "expected audible speech");

        CancellationSignal cancel = new CancellationSignal();
        List<PcmAudio> got = new ArrayList<>();
        tts.synthesize("This sentence is cancelled after its first piece of audio has been delivered.", c -> {
            got.add(c);
            cancel.cancel();
        }, cancel);
        assertEquals(1, got.size());
        assertTrue(cancel.isCancelled());
    }

    @Test
    void blankTextMakesNoAudioAndNoLogFolderIsWritten() throws IOException {
        assertEquals(0, tts.synthesize("   ").length());
        assertFalse(Files.exists(Path.of("log", "server.log")), "MaryTTS must not write ./log/server.log");
    }
}
