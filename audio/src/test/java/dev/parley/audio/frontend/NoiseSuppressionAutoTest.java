package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.room.NoiseBed;
import dev.parley.audio.room.NoiseBeds;
import dev.parley.audio.room.RoomAssets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real WebRTC front end with its default noise suppression ({@link NoiseSuppression#AUTO}) and the real Vosk
 * fixture model: a question asked after 15 s of a fan, 10 dB above it, is heard because the suppressor turned itself
 * on; in a bed of voices it stays off.
 */
class NoiseSuppressionAutoTest {
    private static final int RATE = 16_000;
    private static final int ASK_AT = 15 * RATE;

    /** {@code bed} at {@code snrDb} below the question's RMS, the question added {@value #ASK_AT} samples in. */
    private static short[] room(float[] bed, short[] question, double snrDb) {
        return room(bed, question, snrDb, ASK_AT);
    }

    /** {@code bed} at {@code snrDb} below the question's RMS, the question added {@code askAt} samples in. */
    private static short[] room(float[] bed, short[] question, double snrDb, int askAt) {
        double bedRms = 0;
        for (float v : bed) {
            bedRms += (double) v * v;
        }
        bedRms = Math.sqrt(bedRms / bed.length) * 32768;
        double questionRms = Math.pow(10, LevelMeter.rmsDbfs(question, 0, question.length) / 20) * 32768;
        double gain = questionRms * Math.pow(10, -snrDb / 20) / bedRms;
        short[] mic = new short[bed.length];
        for (int i = 0; i < mic.length; i++) {
            double v = bed[i] * 32768 * gain + (i >= askAt && i - askAt < question.length ? question[i - askAt] : 0);
            mic[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        return mic;
    }

    /** What Vosk heard of the question (from 0.5 s before it to the end) after {@code settings}' front end. */
    private static String heard(FrontEndSettings settings, short[] mic, boolean[] suppressing) throws Exception {
        return heard(settings, new short[0], mic, ASK_AT, suppressing);
    }

    /** The same with {@code far} played (from the start) and the question {@code askAt} samples in. */
    private static String heard(FrontEndSettings settings, short[] far, short[] mic, int askAt, boolean[] suppressing)
            throws Exception {
        short[] out;
        try (AudioFrontEnd fe = WebRtcFrontEndTest.openOrSkip(settings)) {
            out = WebRtcFrontEndTest.run(fe, far, mic);
            suppressing[0] = ((WebRtcFrontEnd) fe).suppressingNoise();
        }
        try (VoskRecognizer vosk = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
             RecognitionStream asr = vosk.openStream(RATE)) {
            return WebRtcFrontEndTest.recognize(asr, Arrays.copyOfRange(out, askAt - RATE / 2, out.length));
        }
    }

    @Test
    void aQuestionAfterFifteenSecondsOfAFanIsHeard() throws Exception {
        short[] question = WebRtcFrontEndTest.load("espeak-ng/10-goodbye.wav").samples();
        short[] mic = room(NoiseBeds.make(NoiseBed.FAN, 18, 7, List.of()), question, 10);
        boolean[] suppressing = new boolean[1];
        String auto = heard(FrontEndSettings.defaults(), mic, suppressing);
        assertTrue(suppressing[0], "the suppressor did not turn itself on in a fan's noise");
        assertEquals("goodbye", auto, "with noise suppression auto in a fan at 10 dB SNR");
        String off = heard(FrontEndSettings.defaults().withNoiseSuppression(NoiseSuppression.OFF), mic, suppressing);
        assertFalse(suppressing[0]);
        System.out.println("a fan at 10 dB SNR: Vosk heard '" + auto + "' with noise suppression auto, '" + off
                + "' without it");
    }

    /**
     * The app's first seconds: the listening cue 1.1 s after listening starts, its echo in the room, and the user's
     * first question soon after it. Judged first after 3 s, and again from 300 ms after the cue, the suppressor came
     * on in the middle of the question or not before it, and Vosk heard something else.
     */
    @Test
    void aQuestionRightAfterTheListeningCueInAFanIsHeard() throws Exception {
        short[] question = WebRtcFrontEndTest.load("espeak-ng/10-goodbye.wav").samples();
        int cueAt = (int) (RATE * dev.parley.audio.playback.ListeningCue.DELAY_MILLIS / 1000);
        int askAt = cueAt + RATE * dev.parley.audio.playback.ListeningCue.MILLIS / 1000 + RATE;
        short[] mic = room(NoiseBeds.make(NoiseBed.FAN, 5, 7, List.of()), question, 10, askAt);
        short[] cue = dev.parley.audio.playback.ListeningCue.sound().samples();
        short[] far = new short[cueAt + cue.length];
        System.arraycopy(cue, 0, far, cueAt, cue.length);
        int delay = RATE * 40 / 1000;       // the cue's echo: 40 ms late, 6 dB down, and a reflection 30 ms after it
        for (int i = 0; i < far.length; i++) {
            double echo = 0.5 * far[i] + (i >= 480 ? 0.25 * far[i - 480] : 0);
            if (i + delay < mic.length) {
                mic[i + delay] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, mic[i + delay] + echo));
            }
        }
        boolean[] suppressing = new boolean[1];
        String auto = heard(FrontEndSettings.defaults(), far, mic, askAt, suppressing);
        assertTrue(suppressing[0], "the suppressor was not on after the cue in a fan's noise");
        assertEquals("goodbye", auto, "a question 1 s after the listening cue, noise suppression auto, a fan at 10 dB SNR");
    }

    @Test
    void inABedOfVoicesTheSuppressorStaysOff() throws Exception {
        short[] question = WebRtcFrontEndTest.load("espeak-ng/10-goodbye.wav").samples();
        float[] bed = NoiseBeds.make(NoiseBed.BABBLE, 18, 7, RoomAssets.snippets(SharedFixtures.voskRecordings()));
        boolean[] suppressing = new boolean[1];
        String auto = heard(FrontEndSettings.defaults(), room(bed, question, 10), suppressing);
        assertFalse(suppressing[0], "the suppressor turned itself on in a bed of voices (Vosk heard '" + auto + "')");
    }
}
