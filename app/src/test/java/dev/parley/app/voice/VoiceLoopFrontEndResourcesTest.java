package dev.parley.app.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.app.TestModels;
import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.ResilientMicrophone;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.device.JavaSoundLines;
import dev.parley.audio.device.RetryPolicy;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.playback.ResilientSpeaker;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.vad.VoiceActivityDetector;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link VoiceLoopResourcesTest} with the full front end, as the window and {@code parley talk} run it: each of 50
 * rounds opens WebRTC's AudioProcessing (AEC3, noise suppression, high-pass filter) and a Silero VAD ONNX session
 * (from the one {@link VadFactory} whose ONNX Runtime environment lives for the process, as in the app), the
 * resilient microphone and speaker on the virtual device, the engine and Vosk, hears audio and closes everything;
 * every fifth round also completes a spoken turn, interrupted once it plays. Over the second 25 rounds: no thread,
 * file handle or native memory growth. Without the Silero model the rounds run the energy VAD and say so; without
 * WebRTC's native library the test is skipped.
 */
class VoiceLoopFrontEndResourcesTest {
    private static final int ROUNDS = 50;
    private static final int TURN_EVERY = 5;
    private static final long WAIT_S = 60;      // a safety net for a hung test, not a timing assertion
    private static MaryTtsSynthesizer tts;
    private static Path vosk;
    private static PcmAudio whatTimeIsIt;
    private static Path silero;
    private static final VadFactory VADS = new VadFactory(m -> System.out.println("VoiceLoopFrontEndResourcesTest: " + m));

    @TempDir
    static Path models;

    @BeforeAll
    static void setUp() throws Exception {
        vosk = SharedFixtures.require("vosk/model-assistant");
        whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"), 16_000);
        try (AudioFrontEnd probe = FrontEnds.open(FrontEndSettings.defaults())) {
            assumeTrue(probe.cancelsEcho(), "skipped: no echo canceller here (" + probe.description() + ")");
        }
        for (String c : new String[] {System.getenv("PARLEY_SILERO_MODEL"), System.getProperty("parley.silero.model")}) {
            if (silero == null && c != null && !c.isBlank() && Files.isRegularFile(Path.of(c))) {
                silero = Path.of(c);
            }
        }
        if (silero == null) {
            System.out.println("VoiceLoopFrontEndResourcesTest: the ONNX part is skipped: no Silero VAD model at "
                    + "$PARLEY_SILERO_MODEL or -Dparley.silero.model (npm @ricky0123/vad-web@0.0.31, "
                    + "dist/silero_vad_v5.onnx); the rounds run the energy VAD");
        }
        tts = MaryTtsSynthesizer.start();
    }

    @AfterAll
    static void tearDown() {
        if (tts != null) {
            tts.close();
        }
    }

    @Test
    void fiftyVoiceLoopsWithEchoCancellerAndSileroReturnToTheStartingLevels() throws Exception {
        Path model = TestModels.tiny(models);
        for (int i = 0; i < 3; i++) {
            round(model, i); // warm up: classes, JIT, Vosk's, WebRTC's, ONNX Runtime's and ALSA's one-time set-up
        }
        ResourceLevels before = ResourceLevels.now();
        int processBefore = processThreads();
        Map<String, Integer> threadsBefore = threadNames();
        for (int i = 0; i < ROUNDS / 2; i++) {
            round(model, i);
        }
        ResourceLevels half = ResourceLevels.now();
        int processHalf = processThreads();
        java.util.List<ResourceLevels> secondHalf = new java.util.ArrayList<>(java.util.List.of(half));
        for (int i = ROUNDS / 2; i < ROUNDS; i++) {
            round(model, i);
            secondHalf.add(ResourceLevels.now());
        }
        ResourceLevels after = secondHalf.getLast();
        int processAfter = processThreads();
        String levels = after.since(before) + "; second half: " + after.since(half) + " (after each round, MiB: "
                + ResourceLevels.offHeapMiB(secondHalf) + ")"
                + "; process threads (native ones "
                + "too) " + processBefore + " -> " + processHalf + " -> " + processAfter + "; threads before "
                + threadsBefore + ", after " + threadNames();
        System.out.println("VoiceLoopFrontEndResourcesTest, " + ROUNDS + " rounds, VAD "
                + (silero != null ? "silero" : "energy") + ": " + levels);
        assertEquals(0, ResourceLevels.mappingsOf(model), "the model file is unmapped");
        assertTrue(after.threads() <= before.threads(), levels);
        // ONNX Runtime's and WebRTC's own threads are native: ThreadMXBean does not see them, the kernel does
        assertTrue(processAfter <= processBefore, levels);
        assertTrue(after.fileHandles() <= before.fileHandles(), levels);
        assertTrue(after.directBytes() - before.directBytes() < 1 << 20, levels);
        // as VoiceLoopResourcesTest (MALLOC_ARENA_MAX=2, the same bound and why): a leaked AudioProcessing or ONNX
        // session that costs more than about 1.3 MiB a round fails it.
        assertTrue(after.offHeapResidentBytes() - half.offHeapResidentBytes() < 32L << 20, levels);
    }

    /** Threads of the process as the kernel counts them (/proc/self/status), native ones included. */
    private static int processThreads() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring(8).strip());
            }
        }
        throw new IllegalStateException("no Threads: line in /proc/self/status");
    }

    /** Live threads by name, numbers folded ("pool-3-thread-1" -> "pool-#-thread-#"), for a report of what grew. */
    private static Map<String, Integer> threadNames() {
        Map<String, Integer> names = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.merge(t.getName().replaceAll("\\d+", "#"), 1, Integer::sum);
        }
        return names;
    }

    private static void round(Path modelFile, int round) throws Exception {
        boolean turn = round % TURN_EVERY == 0;
        BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        CountDownLatch heard = new CountDownLatch(1);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        try (LlamaModel model = LlamaModel.load(modelFile, new ModelOptions(BackendKind.VECTOR, 2));
             CachedSession session = new CachedSession(model.newSession(256));
             VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Conversation conversation = new Conversation(tokenizer,
                    ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null)), session, null);
            ResilientMicrophone mic = ResilientMicrophone.open(MicrophoneSource.Options.defaults(), new JavaSoundLines(),
                    RetryPolicy.defaults());
            assertTrue(mic.fault() == null, "round " + round + ": " + mic.fault());
            device.speak(turn ? whatTimeIsIt.concat(PcmAudio.silence(1200, 16_000)) : PcmAudio.silence(200, 16_000));
            ResilientSpeaker sink = ResilientSpeaker.open(null, tts.sampleRate(), new JavaSoundLines(), RetryPolicy.defaults());
            VoiceSettings settings = VoiceSettings.defaults();
            VoiceActivityDetector vad = VADS.open(silero != null ? VadChoice.SILERO : VadChoice.ENERGY, silero,
                    settings.vad(), SileroVadSettings.defaults());
            assertEquals(silero != null ? "silero" : "energy", vad.name());
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(vosk),
                    new EngineResponder(conversation, Sampler.greedy(), 6), new KeepOpenSynthesizer(tts), sink,
                    settings, FrontEnds.open(FrontEndSettings.defaults()), vad);
            pipeline.addListener(new VoiceListener() {
                @Override
                public void level(double dbfs) {
                    heard.countDown();
                }

                @Override
                public void speaking(long t, String sentence) {
                    pipeline.interrupt();
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
                assertTrue(pipeline.fullDuplex(), "round " + round + ": " + pipeline.frontEndDescription());
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
