package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.PassThroughFrontEnd;
import dev.parley.audio.vad.SileroModelFile;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The user's first question, however short, teaches the loop their level ({@link UserVoice}), which over a reply
 * tells their barge-in from a bed of voices: the real Silero VAD and Vosk on a recording, through the listen loop
 * while Parley is silent.
 */
class FirstTurnLevelTest {
    @Test
    void aShortFirstQuestionTeachesTheUsersLevelWithTheSileroVad() throws Exception {
        PcmAudio question = WavFileSource.load(SharedFixtures.require("vosk/wav/espeak-ng/03-what-time-is-it.wav"),
                16_000);
        PcmAudio audio = silence(1500).concat(question).concat(silence(1500));
        List<String> turns = new CopyOnWriteArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        ListenLoop.Host host = new ListenLoop.Host() {
            @Override
            public boolean assistantActive() {
                return false;
            }

            @Override
            public void bargeIn() {
            }

            @Override
            public void userTurn(Transcript.Final text, long speechEnd, long finalStamp) {
                turns.add(text.text());
            }

            @Override
            public void level(double dbfs) {
            }

            @Override
            public void partial(Transcript.Partial partial) {
            }

            @Override
            public void error(Throwable t) {
                errors.add(t);
            }
        };
        ListenLoop loop;
        try (VoskRecognizer vosk = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
             RecognitionStream asr = vosk.openStream(16_000);
             VoiceActivityDetector vad = new VadFactory(m -> {
                 throw new AssertionError("the Silero VAD did not open: " + m);
             }).open(VadChoice.SILERO, SileroModelFile.require(), VoiceSettings.defaults().vad(),
                     SileroVadSettings.defaults())) {
            loop = new ListenLoop(new WavFileSource(audio, 20), asr, VoiceSettings.defaults(), host,
                    new PassThroughFrontEnd("none"), vad);
            loop.run();
        }
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals(List.of("what time is it"), turns);
        // the Silero VAD starts speech 160 ms into it: after its start this question holds 420-480 ms of voiced
        // frames, under what the level needs; its onset, in the pre-roll, is the user's voice too
        assertTrue(loop.userVoiceKnownMillis() >= UserVoice.MIN_KNOWN_MILLIS,
                "the user's level is known from " + loop.userVoiceKnownMillis() + " ms of their voice");
        double voiceDbfs = LevelMeter.rmsDbfs(question);
        assertTrue(Math.abs(loop.userVoiceLevelDbfs() - voiceDbfs) < 6, "the user's level "
                + loop.userVoiceLevelDbfs() + " dBFS is not their voice's, " + voiceDbfs + " dBFS by RMS");
    }

    private static PcmAudio silence(int millis) {
        return new PcmAudio(new short[millis * 16], 16_000);
    }
}
