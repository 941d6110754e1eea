package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.frontend.SyntheticRoom;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.audio.vad.EnergyVad;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole loop in full duplex in a simulated room (in process, real time): real WebRTC, Vosk, MaryTTS and
 * {@link SpeakerSink}; the speaker's sound comes back to the microphone through a synthetic impulse response, as
 * loud as the user. The reply is made of sentences the fixture recognizer knows, so any echo that got through
 * would be heard as words.
 */
class FullDuplexPipelineTest {
    private static final String REPLY = "Hello. How are you? Thank you. Tell me a joke. Goodbye. Hello. How are you? "
            + "Thank you. Goodbye. Hello. How are you? Thank you. Tell me a joke. Goodbye.";
    private static final int SENTENCES = 14;
    /**
     * The models' load time that these tests' moments were chosen with: they loaded on the room's clock then (0.7 s
     * on these machines), so the cue and all that is placed after it came that much later against the question.
     * They load before the clock starts now, and this keeps the moments the tests were made and checked at.
     */
    private static final int LOAD_MILLIS = 700;
    /**
     * When the user's sound comes after Parley's first sound (the listening cue as the loop starts): about 7 s into the
     * reply, after the canceller's first convergence.
     */
    private static final int DURING_MILLIS = 10_000 + LOAD_MILLIS;
    /** When the user asks: once the listening cue has played (it tells them Parley listens). */
    private static final int QUESTION_MILLIS = (int) (500 + dev.parley.audio.playback.ListeningCue.DELAY_MILLIS
            + dev.parley.audio.playback.ListeningCue.MILLIS + 400);
    private static MaryTtsSynthesizer tts;

    @BeforeAll
    static void startTts() throws Exception {
        SharedFixtures.require("vosk/model-assistant");
        tts = MaryTtsSynthesizer.start();
    }

    @AfterAll
    static void stopTts() {
        if (tts != null) {
            tts.close();
        }
    }

    /** What MaryTTS says for {@code text}, at 16 kHz (the level the echo is calibrated on). */
    private static short[] speech(String text) throws Exception {
        List<PcmAudio> parts = new CopyOnWriteArrayList<>();
        tts.synthesize(text, parts::add, new CancellationSignal());
        return dev.parley.audio.capture.Resampler.resample(PcmAudio.join(parts, tts.sampleRate()), 16_000).samples();
    }

    private static short[] wav(String name) throws Exception {
        return WavFileSource.load(SharedFixtures.require("vosk/wav/" + name + ".wav"), 16_000).samples();
    }

    /**
     * What one run heard and did, and where on the room's timeline Parley first sounded (the listening cue) and where
     * its sound ended, ms.
     */
    private record Run(List<String> userTurns, List<Long> bargeIns, List<Exchange> history, int holds,
                       String frontEnd, long firstSoundMillis, long soundedUntilMillis) {
        /** Where Parley's sound was on the timeline, and where {@code length} samples placed at {@code after} ms lay. */
        String timeline(int after, int length) {
            long from = firstSoundMillis + after;
            return "Parley sounded from " + firstSoundMillis + " to " + soundedUntilMillis + " ms, the sound placed at "
                    + from + " to " + (from + length * 1000L / 16_000) + " ms";
        }
    }

    /**
     * Runs the loop for {@code seconds} of room time: the user asks "what time is it" after the listening cue, then {@code during}
     * (if any) sounds {@code duringMillis} after Parley first sounded.
     */
    private Run run(short[] during, int duringMillis, double duringGain, int seconds) throws Exception {
        return run(during, duringMillis, duringGain, seconds, false);
    }

    private Run run(short[] during, int duringMillis, double duringGain, int seconds, boolean silero) throws Exception {
        short[] question = wav("espeak-ng/03-what-time-is-it");
        SyntheticRoom shape = new SyntheticRoom(40, 200, 3);
        double[] ir = shape.impulseResponse();
        short[] voice = speech("How are you? Thank you. Tell me a joke.");
        double echoGain = SyntheticRoom.rms(question, 0, question.length)
                / SyntheticRoom.rms(shape.echo(voice, 1.0), 0, voice.length);   // echo as loud as the user
        AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults());
        assumeTrue(fe.cancelsEcho(), "skipped: " + fe.description());
        // what takes time to load is loaded before the room's clock starts: the question is placed at a fixed time on
        // it, the other sounds after the listening cue, and the cue plays as the loop starts. Loaded on the room's
        // clock, the models' load time (0.7 s here alone, more in the whole suite) moved the cue and what follows it
        // later against the question and the reply: a bed of voices meant for the middle of the reply outlasted it
        // and, heard over silence, became a turn
        VoskRecognizer recognizer = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
        dev.parley.audio.vad.VoiceActivityDetector vad = silero ? sileroVad()
                : new EnergyVad(VoiceSettings.defaults().vad());
        List<String> turns = new CopyOnWriteArrayList<>();
        List<Long> bargeIns = new CopyOnWriteArrayList<>();
        AtomicInteger holds = new AtomicInteger();
        CountDownLatch ended = new CountDownLatch(1);
        LoopbackRoom room = new LoopbackRoom(ir, echoGain, seconds);
        AudioSource roomMic = room.microphone();
        AudioSource mic = new AudioSource() {
            @Override
            public int sampleRate() {
                return roomMic.sampleRate();
            }

            @Override
            public PcmAudio read() throws java.io.IOException, InterruptedException {
                PcmAudio f = roomMic.read();
                if (f == null) {
                    ended.countDown();
                }
                return f;
            }

            @Override
            public void close() throws java.io.IOException {
                roomMic.close();
            }
        };
        room.say(question, QUESTION_MILLIS, 1.0);
        if (during != null) {
            room.sayDuringPlayback(during, duringMillis, duringGain);
        }
        Responder fixed = (user, out, cancel) -> out.accept(REPLY);
        try (VoicePipeline p = new VoicePipeline(mic, recognizer, fixed, new KeepOpen(tts),
                SpeakerSink.onLine(room.speaker()), VoiceSettings.defaults(), fe, vad)) {
            assertTrue(p.fullDuplex(), p.frontEndDescription());
            p.addListener(new VoiceListener() {
                @Override
                public void userTurn(long turn, Transcript.Final text) {
                    turns.add(text.text());
                }

                @Override
                public void bargeIn(long turn) {
                    bargeIns.add(turn);
                }

                @Override
                public void replyHeld(long turn, boolean held) {
                    if (held) {
                        holds.incrementAndGet();
                    }
                }
            });
            p.start();
            assertTrue(ended.await(seconds + 30L, TimeUnit.SECONDS), "the room's microphone did not end");
            System.out.println("full duplex run: turns " + turns + ", barge-ins " + bargeIns + ", holds " + holds
                    + ", stats " + p.frontEndStats() + ", history " + p.history() + ", Parley sounded from "
                    + room.firstSoundMillis() + " to " + room.soundedUntilMillis() + " ms");
            return new Run(List.copyOf(turns), List.copyOf(bargeIns), p.history(), holds.get(), p.frontEndDescription(),
                    room.firstSoundMillis(), room.soundedUntilMillis());
        }
    }

    @Test
    void itsOwnVoiceAsLoudAsTheUserNeverInterruptsItNorBecomesATurn() throws Exception {
        Run r = run(null, 0, 0, 26);
        assertEquals(List.of("what time is it"), r.userTurns());
        assertTrue(r.bargeIns().isEmpty(), "barged in on itself: " + r.bargeIns());
        assertEquals(1, r.history().size(), r.history().toString());
        Exchange e = r.history().getFirst();
        assertFalse(e.interrupted(), e.toString());
        assertEquals(SENTENCES, e.spoken().size(), "every sentence of the reply was played: " + e.spoken());
    }

    @Test
    void theUserSpeakingOverTheReplyStopsItAndIsTheNextTurn() throws Exception {
        Run r = run(wav("espeak-ng/05-set-a-timer-for-five-minutes"), DURING_MILLIS, 1.0, 30);
        assertEquals(List.of("what time is it", "set a timer for five minutes"), r.userTurns());
        assertEquals(List.of(1L), r.bargeIns());
        assertTrue(r.history().getFirst().interrupted(), r.history().toString());
        assertTrue(r.history().getFirst().spoken().size() < SENTENCES, r.history().toString());
    }

    /** The same two runs with the Silero VAD (loaded after WebRTC's library, as in the app). */
    @Test
    void withTheSileroVadItsOwnVoiceMakesNoTurnAndTheUserStillBargesIn() throws Exception {
        dev.parley.audio.vad.SileroModelFile.require();
        Run own = run(null, 0, 0, 26, true);
        assertEquals(List.of("what time is it"), own.userTurns());
        assertTrue(own.bargeIns().isEmpty(), "barged in on itself: " + own.bargeIns());
        assertEquals(SENTENCES, own.history().getFirst().spoken().size(), own.history().toString());
        Run user = run(wav("espeak-ng/05-set-a-timer-for-five-minutes"), DURING_MILLIS, 1.0, 30, true);
        assertEquals(List.of(1L), user.bargeIns());
        assertEquals(2, user.userTurns().size(), user.userTurns().toString());
        // The words themselves are checked with the energy VAD above: in some runs here the canceller's delay
        // moved under the extra ONNX load and the grammar-limited recognizer heard another of its sentences
        // (docs/audio.md, known limits). What must hold: the new turn is not made of Parley's own words.
        assertFalse(ListenLoop.userWords(user.userTurns().get(1), new java.util.HashSet<>(java.util.Arrays.asList(
                REPLY.toLowerCase(java.util.Locale.ROOT).split("[^a-z']+")))).isEmpty(), user.userTurns().toString());
    }

    /**
     * A bed of other voices in the room, 10 dB below the user, for 8 s of the reply (the Silero VAD hears speech in
     * it, the fixture recognizer words): the reply is neither stopped nor made into a turn.
     */
    @Test
    void aBedOfVoicesDuringTheReplyDoesNotStopIt() throws Exception {
        dev.parley.audio.vad.SileroModelFile.require();
        short[] question = wav("espeak-ng/03-what-time-is-it");
        float[] bed = dev.parley.audio.room.NoiseBeds.make(dev.parley.audio.room.NoiseBed.BABBLE, 8, 11,
                dev.parley.audio.room.RoomAssets.snippets(SharedFixtures.voskRecordings()));
        short[] babble = new short[bed.length];
        for (int i = 0; i < bed.length; i++) {
            babble[i] = clip(bed[i] * 32768);
        }
        double gain = SyntheticRoom.rms(question, 0, question.length) / SyntheticRoom.rms(babble, 0, babble.length)
                * Math.pow(10, -10 / 20.0);
        // 7.7 s after the cue (which plays 1.1 s in) is about 4 s into the reply (which starts 4.5 s in and, unheld,
        // lasts 15 s): the bed ends about 3 s before the reply does
        Run r = run(babble, BED_MILLIS, gain, 30, true);   // 30 s: each hold on the bed lengthens the reply
        String timeline = r.timeline(BED_MILLIS, babble.length);
        assertEquals(List.of("what time is it"), r.userTurns(), timeline);
        assertTrue(r.bargeIns().isEmpty(), "the voices stopped the reply: " + r.bargeIns() + "; " + timeline);
        Exchange e = r.history().getFirst();
        assertFalse(e.interrupted(), e + "; " + timeline);
        assertEquals(SENTENCES, e.spoken().size(), "every sentence of the reply was played: " + e.spoken());
        // what this test is about: the whole bed lay over the reply (a bed over silence is another case)
        assertTrue(r.firstSoundMillis() + BED_MILLIS + babble.length * 1000L / 16_000 < r.soundedUntilMillis(),
                "the bed was not all over the reply: " + timeline);
    }

    /** When the bed of voices starts: after Parley's first sound, ms. */
    private static final int BED_MILLIS = 7000 + LOAD_MILLIS;

    private static dev.parley.audio.vad.VoiceActivityDetector sileroVad() {
        dev.parley.audio.vad.VoiceActivityDetector v = new dev.parley.audio.vad.VadFactory(m -> {
            throw new AssertionError("the Silero VAD did not open: " + m);
        }).open(dev.parley.audio.vad.VadChoice.SILERO, dev.parley.audio.vad.SileroModelFile.require(),
                VoiceSettings.defaults().vad(), dev.parley.audio.vad.SileroVadSettings.defaults());
        assertEquals("silero", v.name());
        return v;
    }

    @Test
    void aKnockDuringTheReplyDoesNotLoseIt() throws Exception {
        Run r = run(knocks(), DURING_MILLIS, 1.0, 26);
        assertEquals(List.of("what time is it"), r.userTurns());
        assertTrue(r.holds() >= 1, "the knocks were not heard as speech at all, so they tested nothing");
        assertTrue(r.bargeIns().isEmpty(), r.bargeIns().toString());
        Exchange e = r.history().getFirst();
        assertFalse(e.interrupted(), e.toString());
        assertEquals(SENTENCES, e.spoken().size(), "every sentence of the reply was played: " + e.spoken());
    }

    /**
     * A knock and two coughs: a 60 ms decaying burst, then twice 250 ms of low-passed noise swelling and fading, as
     * loud as speech. The VAD hears the coughs as speech; the recognizer finds no words in them.
     */
    static short[] knocks() {
        int rate = 16_000;
        short[] s = new short[rate * 3 / 2];
        Random r = new Random(5);
        double lp = 0;
        for (int i = 0; i < rate * 60 / 1000; i++) {
            lp = 0.7 * lp + 0.3 * r.nextGaussian();
            s[i] = clip(12000 * lp * Math.exp(-i / (rate * 0.012)));
        }
        for (int c = 0; c < 2; c++) {
            int start = rate / 4 + c * rate * 6 / 10;
            int len = rate / 4;
            for (int i = 0; i < len; i++) {
                lp = 0.8 * lp + 0.2 * r.nextGaussian();
                double env = Math.sin(Math.PI * i / len);
                s[start + i] = clip(9000 * lp * env * env);
            }
        }
        return s;
    }

    private static short clip(double v) {
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
    }

    /** The shared MaryTTS, not closed by each pipeline. */
    private record KeepOpen(MaryTtsSynthesizer inner) implements dev.parley.audio.tts.SpeechSynthesizer {
        @Override
        public int sampleRate() {
            return inner.sampleRate();
        }

        @Override
        public void synthesize(String text, java.util.function.Consumer<PcmAudio> out, CancellationSignal cancel)
                throws java.io.IOException {
            inner.synthesize(text, out, cancel);
        }

        @Override
        public void close() {
        }
    }
}
