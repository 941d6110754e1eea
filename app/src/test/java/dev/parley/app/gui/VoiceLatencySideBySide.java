package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.parley.app.gui.voice.AppVoice;
import dev.parley.app.voice.EngineResponder;
import dev.parley.app.voice.ScriptedSpeechSource;
import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.TurnLatency;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.RealTimeSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test: a side-by-side measurement of speech end to first audio, the window's hands-free loop (TestFX, the
 * virtual ALSA microphone and speaker, the chat service and batcher) beside {@code parley talk}'s (its pipeline with
 * the engine's responder, fed the same recordings in real time as {@code --input} does, each after the last
 * reply), in one JVM, on a synthetic model of the shape named by {@code -Dparley.voiceBench=smollm2-135m} (one per run). Skipped without it; writes
 * {@code target/voice-latency-SHAPE.md}. Speed is never asserted (the machine is shared).
 */
class VoiceLatencySideBySide {
    private static final int RATE = 16_000;
    private static final List<String> SAID = List.of("03-what-time-is-it", "06-how-are-you", "02-tell-me-a-joke",
            "07-thank-you", "09-hello", "01-what-is-the-weather-like-today", "10-goodbye");

    /** The silence that ends a turn on both paths: the product's default, or {@code -Dparley.voiceBench.endSilence}. */
    private static final int END_SILENCE = Integer.getInteger("parley.voiceBench.endSilence",
            VoiceSettings.DEFAULT_END_OF_TURN_SILENCE_MILLIS);

    @TempDir
    Path dir;

    private GuiHarness app;
    private VirtualSoundDevice device;

    @AfterEach
    void close() throws Exception {
        if (device != null) {
            device.endInput();
        }
        if (app != null) {
            app.stop();
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void speechEndToFirstAudioWindowBesideTalk() throws Exception {
        String shape = System.getProperty("parley.voiceBench", "").strip();
        assumeTrue(!shape.isBlank(), "skipped: a measurement; run with -Dparley.voiceBench=smollm2-135m (one shape "
                + "per JVM: the virtual microphone opens once)");
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        List<PcmAudio> said = new ArrayList<>();
        for (String name : SAID) {
            said.add(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/" + name + ".wav"), RATE));
        }
        StringBuilder report = new StringBuilder("End-of-turn silence " + END_SILENCE + " ms, speculation after "
                + VoiceSettings.DEFAULT_SPECULATE_AFTER_MILLIS + " ms, both paths fed in real time.\n\n| shape | path | turns | speech end -> first audio, median ms | "
                + "P90 ms | speculation confirmed |\n|---|---|---|---|---|---|\n");
        device = VirtualSoundDevice.create();
        Path model = dir.resolve(shape + ".gguf");
        Synth.generate(SynthSpec.of(ModelShape.builtIn(shape), GgmlType.Q8_0, 1), model);
        List<Double> talk = talk(model, vosk, said);
        device.startClock(RATE);
        List<Double> window = window(model, vosk, said);
        report.append(row(shape, "parley talk (--input)", talk)).append(row(shape, "window (hands-free)", window));
        report.append("\nThe window's chat turns (queued, prompt = time to first token, generation, in ms):\n");
        for (var t : app.context.chat().snapshot().turns()) {
            report.append(String.format(Locale.ROOT, "- turn %d: queued %.0f, saved %.0f, prompt %.0f, generation %.0f, "
                    + "%d tokens%n", t.turn(), t.queuedMs(), t.savedMs(), t.promptMs(), t.generationMs(), t.tokens()));
        }
        Files.writeString(Path.of("target", "voice-latency-" + shape + ".md"), report);
        System.out.println(report);
    }

    /** The window, hands-free from the start (one microphone open per JVM on the virtual device). */
    private List<Double> window(Path model, Path vosk, List<PcmAudio> said) throws Exception {
        app = new GuiHarness(dir.resolve("home"));
        app.beforeWindow = context -> {
            try {
                context.voice().setHandsFree(true);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        app.writeSettings(GuiHarness.settingsFor(model, 1024, 32, vosk).withEndOfTurnSilence(END_SILENCE));
        app.start();
        var voice = app.window.voiceViewModel();
        GuiHarness.waitFor(() -> voice.availableProperty().get() || voice.statusProperty().get().contains("unavailable"));
        assertTrue(voice.availableProperty().get(), voice.statusProperty().get());
        AppVoice loop = (AppVoice) app.context.voice();
        List<Exchange> exchanges = new CopyOnWriteArrayList<>();
        loop.addExchangeListener(exchanges::add);
        long started = loop.speculation().confirmed();
        for (PcmAudio utterance : said) {
            int before = exchanges.size();
            device.speakInRealTime(utterance);
            GuiHarness.waitFor(() -> exchanges.size() > before);
        }
        confirmed = loop.speculation().confirmed() - started;
        return firstAudio(exchanges);
    }

    private long confirmed;

    /** {@code parley talk}'s loop: the engine's responder (warmed up), the recordings in real time, a WAV sink. */
    private List<Double> talk(Path model, Path vosk, List<PcmAudio> said) throws Exception {
        List<Exchange> exchanges = new ArrayList<>();
        java.util.concurrent.BlockingQueue<Exchange> finished = new java.util.concurrent.LinkedBlockingQueue<>();
        try (LlamaModel llama = LlamaModel.load(model, new ModelOptions(BackendKind.VECTOR, 1));
             CachedSession session = new CachedSession(llama.newSession(1024))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(llama.gguf());
            ChatTemplate template = ChatTemplate.detect(llama.gguf().getString("tokenizer.chat_template", null));
            EngineResponder responder = new EngineResponder(new Conversation(tokenizer, template, session,
                    "You are Parley."), Sampler.create(SamplingSettings.greedy()), 32);
            responder.warmUp();
            // Gated: the next utterance comes after the reply, as in the window's run (no barge-in in either).
            ScriptedSpeechSource script = new ScriptedSpeechSource(said, END_SILENCE + 700, true);
            MaryTtsSynthesizer tts = MaryTtsSynthesizer.start();
            VoicePipeline pipeline = new VoicePipeline(new RealTimeSource(script), VoskRecognizer.load(vosk), responder,
                    tts, new WavFileSink(dir.resolve("talk.wav"), tts.sampleRate()),
                    VoiceSettings.defaults().withEndOfTurnSilence(END_SILENCE));
            try (pipeline) {
                pipeline.addListener(new VoiceListener() {
                    @Override
                    public void turnFinished(Exchange e) {
                        finished.add(e);
                        script.release();
                    }
                });
                pipeline.start();
                script.awaitEnd();
                for (int i = 0; i < said.size(); i++) {
                    Exchange e = finished.poll(120, TimeUnit.SECONDS);
                    if (e == null) {
                        break;
                    }
                    exchanges.add(e);
                }
                talkConfirmed = pipeline.speculation().confirmed();
            }
        }
        return firstAudio(exchanges);
    }

    private long talkConfirmed;

    /** Speech end to first audio of each exchange but the first (it pays for the JIT), in ms. */
    private static List<Double> firstAudio(List<Exchange> exchanges) {
        return exchanges.stream().skip(1).map(e -> e.latency().millisAfterSpeechEnd(TurnLatency.Stage.FIRST_AUDIO))
                .filter(v -> !Double.isNaN(v)).toList();
    }

    private String row(String shape, String path, List<Double> ms) {
        double[] v = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2]
                : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        double p90 = v.length == 0 ? Double.NaN : v[Math.min(v.length - 1, (int) Math.ceil(0.9 * v.length) - 1)];
        long spec = path.startsWith("window") ? confirmed : talkConfirmed;
        return String.format(Locale.ROOT, "| %s | %s | %d | %.0f | %.0f | %d | values %s%n", shape, path, v.length,
                median, p90, spec, Arrays.toString(Arrays.stream(v).mapToLong(Math::round).toArray()));
    }
}
