package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The voice loop from a WAV file into a WAV file (no sound device): several turns in one stream. */
class VoicePipelineFileTest {
    @Test
    void turnsSeparatedByLongSilencesAreAllRecognizedAndUnknownSpeechGetsNoReply(@TempDir Path dir) throws Exception {
        String wav = "vosk/wav/";
        PcmAudio audio = PcmAudio.silence(3000, 16_000)
                .concat(WavFileSource.load(SharedFixtures.require(wav + "marytts/02-tell-me-a-joke.wav"), 16_000))
                .concat(PcmAudio.silence(5000, 16_000))
                .concat(WavFileSource.load(SharedFixtures.require(wav + "out-of-grammar/marytts-quick-brown-fox.wav"), 16_000))
                .concat(PcmAudio.silence(5000, 16_000))
                .concat(WavFileSource.load(SharedFixtures.require(wav + "marytts/06-how-are-you.wav"), 16_000))
                .concat(PcmAudio.silence(1000, 16_000));
        List<String> userTurns = new CopyOnWriteArrayList<>();
        List<String> answered = new CopyOnWriteArrayList<>();
        CountDownLatch allTurns = new CountDownLatch(3);
        CountDownLatch lastReply = new CountDownLatch(1);
        Responder okay = (user, out, cancel) -> {
            answered.add(user);
            out.accept("Okay.");
        };
        MaryTtsSynthesizer tts = MaryTtsSynthesizer.start();
        try (VoicePipeline p = new VoicePipeline(new WavFileSource(audio, 20),
                VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant")), okay, tts,
                new WavFileSink(dir.resolve("out.wav"), tts.sampleRate()), VoiceSettings.defaults())) {
            p.addListener(new VoiceListener() {
                @Override
                public void userTurn(long turn, Transcript.Final text) {
                    userTurns.add(text.text());
                    allTurns.countDown();
                }

                @Override
                public void turnFinished(Exchange e) {
                    if (e.userText().equals("how are you")) {
                        lastReply.countDown();
                    }
                }
            });
            p.start();
            assertTrue(allTurns.await(60, TimeUnit.SECONDS), "turns so far: " + userTurns);
            assertTrue(lastReply.await(60, TimeUnit.SECONDS), "no reply to the last turn");
            assertEquals(List.of("tell me a joke", "[unk]", "how are you"), userTurns);
            // the file is read faster than real time, so "how are you" may barge in on the first reply
            List<Exchange> h = p.history();
            assertEquals(List.of("tell me a joke", "how are you"), h.stream().map(Exchange::userText).toList());
            assertEquals("Okay.", h.getLast().replyText());
            assertTrue(!h.getLast().interrupted() && answered.contains("how are you") && !answered.contains("[unk]"), answered.toString());
        }
    }
}
