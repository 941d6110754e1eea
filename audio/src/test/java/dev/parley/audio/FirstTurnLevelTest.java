package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        PcmAudio question = question();
        Heard h = listen(silence(1500).concat(question).concat(silence(1500)));
        assertEquals(List.of("what time is it"), h.turns());
        // the Silero VAD starts speech 160 ms into it: after its start this question holds 420-480 ms of voiced
        // frames, under what the level needs; its onset, in the pre-roll, is the user's voice too
        assertTrue(h.knownMillis() >= UserVoice.MIN_KNOWN_MILLIS,
                "the user's level is known from " + h.knownMillis() + " ms of their voice");
        double voiceDbfs = LevelMeter.rmsDbfs(question);
        assertTrue(Math.abs(h.levelDbfs() - voiceDbfs) < 6, "the user's level " + h.levelDbfs()
                + " dBFS is not their voice's, " + voiceDbfs + " dBFS by RMS");
    }

    /**
     * A bed of voices from the first moment, the question inside it: the turn starts before a second of the room's
     * quiet is known, so nothing tells the bed from the user, and the turn (which holds the question) teaches no
     * level. Measured in `bench duplex` (bedroom, SNR 10): such an 18 s turn at -37.5 dBFS, the room's quiet at
     * -40.5, became the user's level, and a later turn of the bed ("nine" at -38.5 dBFS) was then as loud as them.
     */
    @Test
    void aTurnBegunBeforeTheRoomsQuietIsKnownTeachesNoLevel() throws Exception {
        PcmAudio question = question();
        float[] bed = dev.parley.audio.room.NoiseBeds.make(dev.parley.audio.room.NoiseBed.BABBLE, 6, 11,
                dev.parley.audio.room.RoomAssets.snippets(SharedFixtures.voskRecordings()));
        short[] mix = new short[bed.length];
        double bedRms = 0;
        for (float v : bed) {
            bedRms += v * v;
        }
        bedRms = Math.sqrt(bedRms / bed.length) * 32768;
        double gain = Math.pow(10, LevelMeter.rmsDbfs(question) / 20) * 32768 / bedRms * Math.pow(10, -10 / 20.0);
        short[] q = question.samples();
        int at = 16_000 / 2;
        for (int i = 0; i < mix.length; i++) {
            double v = bed[i] * 32768 * gain + (i >= at && i - at < q.length ? q[i - at] : 0);
            mix[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        Heard h = listen(new PcmAudio(mix, 16_000).concat(silence(1500)));
        assertFalse(h.turns().isEmpty(), "the bed and the question made no turn at all, so this tested nothing");
        assertEquals(0, h.knownMillis(), "a turn begun in the bed before the room's quiet was known taught the level "
                + h.levelDbfs() + " dBFS; turns " + h.turns());
    }

    private static PcmAudio question() throws Exception {
        return WavFileSource.load(SharedFixtures.require("vosk/wav/espeak-ng/03-what-time-is-it.wav"), 16_000);
    }

    /** What the loop made of {@code audio} while Parley was silent, and the user's level it learnt. */
    private record Heard(List<String> turns, double knownMillis, double levelDbfs) {
    }

    private static Heard listen(PcmAudio audio) throws Exception {
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
        return new Heard(List.copyOf(turns), loop.userVoiceKnownMillis(), loop.userVoiceLevelDbfs());
    }

    private static PcmAudio silence(int millis) {
        return new PcmAudio(new short[millis * 16], 16_000);
    }
}
