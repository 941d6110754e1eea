package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.SimulatedClockFrontEnds;
import dev.parley.audio.frontend.SyntheticRoom;
import dev.parley.audio.playback.ListeningCue;
import dev.parley.audio.room.NoiseBed;
import dev.parley.audio.room.NoiseBeds;
import dev.parley.audio.room.RoomAssets;
import dev.parley.audio.vad.SileroModelFile;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The first question in a bed of voices, after the listening cue ({@link OfflineDuplexRoom}: the real front end, Silero
 * VAD and Vosk, the same on every run). The loop does not listen over the cue while the echo canceller has not
 * converged, and the VAD's start of speech over it (the bed's) was lost with the frame: the bed kept the VAD in speech
 * after the cue, no start came again, and the question, 17 dB above the room, made no turn (`bench duplex`'s bedroom
 * at SNR 10 in `OfflineDuplexSweep`, every run). Without the fix no turn at all came here.
 */
class QuestionAfterTheCueTest {
    @Test
    void theFirstQuestionInABedOfVoicesIsHeardAfterTheCue() throws Exception {
        short[] question = wav("espeak-ng/03-what-time-is-it");
        short[] reply = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/02-tell-me-a-joke.wav"), 16_000)
                .samples();
        SyntheticRoom shape = new SyntheticRoom(40, 200, 3);
        double[] ir = shape.impulseResponse();
        double echoGain = SyntheticRoom.rms(question, 0, question.length)
                / SyntheticRoom.rms(shape.echo(reply, 1.0), 0, reply.length);
        AtomicLong clock = new AtomicLong();
        OfflineDuplexRoom room = new OfflineDuplexRoom(SECONDS, ir, echoGain, reply, "tell me a joke", clock);
        float[] voices = NoiseBeds.make(NoiseBed.BABBLE, SECONDS, 11, RoomAssets.snippets(SharedFixtures.voskRecordings()));
        double gain = SyntheticRoom.rms(question, 0, question.length) / (rms(voices) * 32768)
                * Math.pow(10, -BED_BELOW_DB / 20.0);
        // a fan from the first moment (the loop learns the room), the voices from when the cue starts, as loud as the
        // fan: the VAD's start comes in the cue, and the voices keep it in speech until the user asks
        float[] fan = NoiseBeds.make(NoiseBed.FAN, SECONDS, 3, List.of());
        int from = (int) ListeningCue.DELAY_MILLIS * 16;
        short[] bed = new short[voices.length];
        for (int i = 0; i < bed.length; i++) {
            bed[i] = (short) Math.round((fan[i] + (i >= from ? voices[i - from] : 0)) * 32768 * gain);
        }
        room.say(bed, 0, 1.0);
        room.playAt(ListeningCue.sound().samples(), (int) ListeningCue.DELAY_MILLIS);
        room.say(question, QUESTION_MILLIS, 1.0);
        try (AudioFrontEnd fe = SimulatedClockFrontEnds.open(FrontEndSettings.defaults(), clock::get);
             VoskRecognizer vosk = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
             RecognitionStream asr = vosk.openStream(16_000);
             VoiceActivityDetector vad = new VadFactory(m -> {
                 throw new AssertionError("the Silero VAD did not open: " + m);
             }).open(VadChoice.SILERO, SileroModelFile.require(), VoiceSettings.defaults().vad(),
                     SileroVadSettings.defaults())) {
            room.frontEnd(fe);
            new ListenLoop(room, asr, VoiceSettings.defaults(), room, fe, vad, room::lastReductionDb).run();
        }
        assertTrue(room.errors().isEmpty(), room.errors().toString());
        assertTrue(room.turns().contains("what time is it"), "the question after the cue was not heard: turns "
                + room.turns() + ", events " + room.events());
        assertEquals(List.of(), room.turns().subList(room.turns().indexOf("what time is it") + 1, room.turns().size()),
                "turns after the question (the bed's)");
    }

    /**
     * The room's length, s, the level of the fan and of the voices below the user's, dB (together about 10), and when
     * the user asks, ms from the start.
     */
    private static final int SECONDS = 12;
    private static final double BED_BELOW_DB = 13;
    private static final int QUESTION_MILLIS = 3000;

    private static short[] wav(String name) throws Exception {
        return WavFileSource.load(SharedFixtures.require("vosk/wav/" + name + ".wav"), 16_000).samples();
    }

    private static double rms(float[] x) {
        double e = 0;
        for (float v : x) {
            e += v * v;
        }
        return Math.sqrt(e / x.length);
    }
}
