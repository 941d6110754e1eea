package dev.parley.app.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.engine.ResourceLevels;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine and the whole voice loop opened and closed 50 times on the virtual sound device: each
 * round loads the model (two worker threads), a Vosk model and recognizer, opens the microphone and
 * speaker lines, starts the pipeline's three threads, hears audio and closes everything; every fifth
 * round also completes a spoken turn (hears "what time is it", answers, starts speaking and is
 * interrupted, as a barge-in would). MaryTTS is started once and shared, as the app does (it takes
 * seconds to start). Afterwards threads, file handles, mappings of the model file and memory outside
 * the heap are back at their level. This test found MaryTTS's vocoder thread leaking on every
 * interrupted reply (see MaryTtsCancelTest).
 */
class VoiceLoopResourcesTest {
    private static final int ROUNDS = 50;
    /** Every fifth round also completes a spoken turn; the others open, start, hear a little audio and close. */
    private static final int TURN_EVERY = 5;
    private static final long WAIT_S = 60;      // a safety net for a hung test, not a timing assertion
    private static MaryTtsSynthesizer tts;
    private static Path vosk;
    private static PcmAudio whatTimeIsIt;

    @TempDir
    static Path models;

    @BeforeAll
    static void setUp() throws Exception {
        vosk = SharedFixtures.require("vosk/model-assistant");
        whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"), 16_000);
        tts = MaryTtsSynthesizer.start();
    }

    @AfterAll
    static void tearDown() {
        if (tts != null) {
            tts.close();
        }
    }

    @Test
    void fiftyVoiceLoopsReturnToTheStartingLevels() throws Exception {
        Path model = TestModels.tiny(models);
        for (int i = 0; i < 3; i++) {
            round(model, i); // warm up: classes, JIT, Vosk's and ALSA's one-time set-up
        }
        ResourceLevels before = ResourceLevels.now();
        for (int i = 0; i < ROUNDS / 2; i++) {
            round(model, i);
        }
        ResourceLevels half = ResourceLevels.now();
        java.util.List<ResourceLevels> secondHalf = new java.util.ArrayList<>(java.util.List.of(half));
        for (int i = ROUNDS / 2; i < ROUNDS; i++) {
            round(model, i);
            secondHalf.add(ResourceLevels.now());
        }
        ResourceLevels after = secondHalf.getLast();
        String levels = after.since(before) + "; second half: " + after.since(half) + " (after each round, MiB: "
                + ResourceLevels.offHeapMiB(secondHalf) + ")";
        System.out.println("VoiceLoopResourcesTest, " + ROUNDS + " rounds: " + levels);
        assertEquals(0, ResourceLevels.mappingsOf(model), "the model file is unmapped");
        // Every thread the loop starts (pipeline stages, engine workers, the test's microphone feeder) ends on close,
        // and every line, model file and recognizer is closed: exact.
        assertTrue(after.threads() <= before.threads(), levels);
        assertTrue(after.fileHandles() <= before.fileHandles(), levels);
        assertTrue(after.directBytes() - before.directBytes() < 1 << 20, levels);
        // Memory outside the heap: the first rounds raise glibc's high-water marks (one malloc arena per thread that
        // allocates natively: Vosk's recognizers, ALSA, the engine's workers), then it is flat. Surefire runs this
        // class with MALLOC_ARENA_MAX=2 (as ./parley does), which keeps the arenas from multiplying: measured
        // second half +0 MiB (JVM native memory tracking: +7 MiB over 50 rounds, the JIT's arenas). Without the
        // limit glibc's per-thread arenas grew +7 to +32 MiB over the same rounds; a leaked Vosk model would cost
        // tens of MiB a round. ResourceLevels trims glibc's free memory before each reading: with the register-blocked
        // kernels C2's arenas for their (re)compilations, freed but kept by glibc, grew the second half by +17 to
        // +38 MiB; trimmed, -12 to +6 MiB in four runs, then +17 (the front-end test, in a clean-clone CI run) and +19
        // (here), every other figure flat: the readings after each round wander by 10-20 MiB either way (glibc's
        // arenas, not the code cache, which is left out and stays at 12-13 MiB). Seven clean-clone CI runs of sessions
        // 28-30 give the shape of that wander: the readings after each round sit flat, then jump by 25-34 MiB in one
        // round and stay there for 3-10 rounds; in four runs they came back down before the end (168 -> 136,
        // 172 -> 144, 171 -> 134, 167 -> 136), in three the last reading was inside such a plateau (+33, +34, +37
        // over the half) and failed a bound of 32 MiB with every other figure flat. Run alone on a working copy
        // (session 30, the same machine) the jumps come at the rounds that complete a turn and the half ends +32 to
        // +53 MiB, with session 29's listen loop as with session 30's (+33). No leak grows in one step and returns; a
        // leaked Vosk model costs tens of MiB every round. So the bound is 64 MiB, about 2.5 MiB a round: such a leak
        // fails it at once, a plateau does not; a leak below that is within this measurement's noise over 25 rounds.
        assertTrue(after.offHeapResidentBytes() - half.offHeapResidentBytes() < 64L << 20, levels);
    }

    private static void round(Path modelFile, int round) throws Exception {
        boolean turn = round % TURN_EVERY == 0;
        BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        java.util.concurrent.CountDownLatch heard = new java.util.concurrent.CountDownLatch(1);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        try (LlamaModel model = LlamaModel.load(modelFile, new ModelOptions(BackendKind.VECTOR, 2));
             CachedSession session = new CachedSession(model.newSession(256));
             VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Conversation conversation = new Conversation(tokenizer,
                    ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null)), session, null);
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            device.speak(turn ? whatTimeIsIt.concat(PcmAudio.silence(1200, 16_000)) : PcmAudio.silence(200, 16_000));
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(vosk),
                    new EngineResponder(conversation, Sampler.greedy(), 6), new KeepOpenSynthesizer(tts), sink,
                    VoiceSettings.defaults());
            pipeline.addListener(new VoiceListener() {
                @Override
                public void level(double dbfs) {
                    heard.countDown();
                }

                @Override
                public void speaking(long turn, String sentence) {
                    pipeline.interrupt(); // the reply has reached the speaker: stop it, as a stop button would
                }

                @Override
                public void turnFinished(Exchange exchange) {
                    finished.add(exchange);
                }

                @Override
                public void error(Throwable error) {
                    errors.add(error);
                }
            });
            Exchange e;
            try {
                pipeline.start();
                assertTrue(heard.await(WAIT_S, TimeUnit.SECONDS), "round " + round + ": the microphone was read");
                e = turn ? finished.poll(WAIT_S, TimeUnit.SECONDS) : null;
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(errors.isEmpty(), "round " + round + " errors: " + errors);
            if (turn) {
                assertNotNull(e, "round " + round + ": the turn finished");
                assertEquals("what time is it", e.userText(), "round " + round);
            }
        }
    }
}
