package dev.parley.app.cli;

import dev.parley.app.voice.ChatEngineResponder;
import dev.parley.app.voice.EngineResponder;
import dev.parley.audio.Responder;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.app.voice.ScriptedSpeechSource;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.ResilientMicrophone;
import dev.parley.audio.device.JavaSoundLines;
import dev.parley.audio.device.RetryPolicy;
import dev.parley.audio.playback.ResilientSpeaker;
import dev.parley.audio.capture.RealTimeSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.EchoCanceller;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.frontend.NoiseSuppression;
import dev.parley.audio.frontend.PassThroughFrontEnd;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadFactory;
import dev.parley.audio.vad.VoiceActivityDetector;
import dev.parley.audio.playback.AudioSink;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.audio.vad.VadChoice;
import dev.parley.models.download.Downloader;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.sampling.Sampler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley talk}: the whole voice loop in a terminal: microphone, Vosk, the engine, MaryTTS,
 * speaker; partial transcripts on stderr, the conversation and each turn's stage latencies on stdout.
 */
@Command(name = "talk", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.Chat.class,
        description = {"Talks with the model: speak, and it answers aloud (microphone -> Vosk -> model -> MaryTTS -> speaker).",
            "Full duplex with echo cancellation (Parley's linear canceller; --aec aec3 for WebRTC's): speak over a reply to interrupt it; a cough does not.",
            "Prints partial transcripts (stderr), your words, the reply and the latency of each stage after each turn.",
            "Ctrl-D or /exit ends it; with --push-to-talk, Enter starts and Enter ends your turn.",
            "Typed chat works without audio: parley chat."})
final class TalkCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Mixin
    SamplingArgs samplingArgs;

    @Mixin
    StoreArgs storeArgs;

    @Option(names = {"-s", "--system"}, paramLabel = "TEXT", description = "The system message.")
    String system;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "128",
            description = "At most N tokens per answer (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--vosk-model", paramLabel = "DIR",
            description = "Vosk model folder (default: the catalog's default speech model in the model store).")
    Path voskModel;

    @Option(names = "--vad", paramLabel = "energy|silero", defaultValue = "silero",
            description = "Voice activity detector: silero (neural; its 2.3 MB model is downloaded into the model store "
                    + "on first use) or energy (levels only; default: ${DEFAULT-VALUE}).")
    String vad;

    @Option(names = "--vad-model", paramLabel = "FILE",
            description = "Silero VAD v5 ONNX file (default: the catalog's, in the model store).")
    Path vadModel;

    /** The Silero VAD model file the loop is to use, or null for the energy VAD (resolved in {@link #call()}). */
    Path vadModelFile;

    @Option(names = "--voice", paramLabel = "NAME", defaultValue = MaryTtsSynthesizer.DEFAULT_VOICE,
            description = "MaryTTS voice (default: ${DEFAULT-VALUE}).")
    String voice;

    @Option(names = "--input-device", paramLabel = "NAME", description = "Capture device (a Java Sound mixer name; default: the system's).")
    String inputDevice;

    @Option(names = "--output-device", paramLabel = "NAME", description = "Playback device (a Java Sound mixer name; default: the system's).")
    String outputDevice;

    @Option(names = "--push-to-talk", description = "Your turn is what you say between two presses of Enter (default: hands-free).")
    boolean pushToTalk;

    @Option(names = "--end-silence", paramLabel = "MS", defaultValue = "" + VoiceSettings.DEFAULT_END_OF_TURN_SILENCE_MILLIS,
            description = "Hands-free: the silence that ends your turn, in ms (default: ${DEFAULT-VALUE}).")
    int endSilence;

    @Option(names = "--speculate", paramLabel = "MS", defaultValue = "" + VoiceSettings.DEFAULT_SPECULATE_AFTER_MILLIS,
            description = "Start the reply after MS of silence, heard only if the turn then ends with the same words "
                    + "(0 = off; default: ${DEFAULT-VALUE}).")
    int speculate;

    @Option(names = "--aec", paramLabel = "on|aec3|off", defaultValue = "on",
            description = "Echo cancellation on the microphone (default: ${DEFAULT-VALUE}: Parley's linear canceller; "
                    + "aec3: WebRTC's AEC3); off makes the loop half-duplex.")
    String aec;

    @Option(names = "--noise-suppression", paramLabel = "LEVEL", defaultValue = "auto",
            description = "Noise suppression: auto (high where the room's noise is steady, as a fan's; off in a bed of"
                    + " voices), off, low, moderate, high, very-high (default: ${DEFAULT-VALUE}).")
    String noiseSuppression;

    @Option(names = "--half-duplex", description = "Do not listen while speaking: only a loud voice interrupts a reply, "
            + "and nothing said over it is transcribed (default: full duplex when echo cancellation runs).")
    boolean halfDuplex;

    @Option(names = "--no-listening-cue", description = "Full duplex: no soft cue when listening starts (the echo "
            + "canceller then learns the room from the first reply, and that reply cannot be interrupted at first).")
    boolean noListeningCue;

    @Option(names = "--input", paramLabel = "FILE.wav",
            description = "Say this recording instead of listening to the microphone (played in real time; for demos and tests).")
    Path input;

    @Option(names = "--remote", paramLabel = "URL",
            description = "Answer with an OpenAI-compatible server instead of --model, e.g. http://127.0.0.1:8080/v1 "
                    + "(parley serve, llama.cpp's server, vLLM, Ollama).")
    String remoteUrl;

    @Option(names = "--remote-key", paramLabel = "KEY", description = "The remote server's API key.")
    String remoteKey;

    @Option(names = "--remote-model", paramLabel = "ID",
            description = "The model to ask the remote server for (default: the first it lists).")
    String remoteModel;

    @Option(names = "--out", paramLabel = "FILE.wav", description = "Write the spoken replies to this WAV file instead of playing them.")
    Path out;

    TalkCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (maxTokens < 1) {
            throw new UsageException("--max-tokens must be at least 1, found " + maxTokens);
        }
        if (speculate < 0 || speculate > 10_000) {
            throw new UsageException("--speculate must be 0 (off) to 10000 ms, found " + speculate);
        }
        if (endSilence < 100 || endSilence > 10_000) {
            throw new UsageException("--end-silence must be 100..10000 ms, found " + endSilence);
        }
        if (input != null && pushToTalk) {
            throw new UsageException("--push-to-talk needs a microphone: leave it out with --input");
        }
        VoiceSettings settings = VoiceSettings.defaults().withEndOfTurnSilence(endSilence).withSpeculation(speculate)
                .withMode(pushToTalk ? VoiceSettings.Mode.PUSH_TO_TALK : VoiceSettings.Mode.HANDS_FREE)
                .withHalfDuplex(halfDuplex).withListeningCue(!noListeningCue);
        frontEndSettings();     // checks --aec and --noise-suppression before anything slow
        VadChoice vadChoice;
        try {
            vadChoice = VadChoice.parse(vad);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--vad: " + e.getMessage(), e);
        }
        Path voskDir = VoskModelChoice.choose(voskModel, storeArgs);
        VoskRecognizer.checkModelFolder(voskDir);
        // fetched with the speech model on first voice use; the listen loop opens it through a VadFactory
        vadModelFile = VadModelChoice.choose(vadChoice, vadModel, storeArgs, new Downloader(),
                new java.io.PrintWriter(terminal.err(), true));
        ScriptedSpeechSource script = input == null ? null
                : new ScriptedSpeechSource(List.of(WavFileSource.load(input, WavFileSource.DEFAULT_RATE)), endSilence + 600, false);
        if (remoteUrl != null) {
            RemoteEngine remote;
            try {
                remote = new RemoteEngine(remoteUrl, remoteKey, remoteModel);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
            try (remote) {
                terminal.err().println("parley: replies come from " + remote.baseUrl() + ", model "
                        + (remoteModel != null ? remoteModel : remote.listModels().stream().findFirst().orElse("?")));
                loop(new ChatEngineResponder(remote, samplingArgs.settings(), maxTokens, system), voskDir, settings,
                        script);
            }
            return 0;
        }
        Sampler sampler = Sampler.create(samplingArgs.settings());
        try (LoadedModel loaded = LoadedModel.open(modelArgs);
             CachedSession session = loaded.newSession(modelArgs.context())) {
            if (loaded.model().gguf().getBoolean("parley.synth", false)) {
                terminal.err().println("parley: DEMO MODEL: " + modelArgs.model().getFileName()
                        + " has random weights, so its answers are nonsense");
            }
            EngineResponder responder = new EngineResponder(loaded.newConversation(session, system), sampler, maxTokens);
            responder.warmUp();
            loop(responder, voskDir, settings, script);
        }
        return 0;
    }

    /** Runs the voice loop with {@code responder} until the input ends or the user quits. */
    private void loop(Responder responder, Path voskDir, VoiceSettings settings, ScriptedSpeechSource script)
            throws Exception {
        VoskRecognizer vosk = VoskRecognizer.load(voskDir);
        MaryTtsSynthesizer tts;
        try {
            tts = MaryTtsSynthesizer.start(voice);
        } catch (IOException | RuntimeException e) {
            vosk.close();
            throw e;
        }
        AudioSource source = null;
        AudioSink sink = null;
        try {
            source = script != null ? new RealTimeSource(script) : openMicrophone();
            sink = out != null ? new WavFileSink(out, tts.sampleRate()) : openSpeaker(tts.sampleRate());
        } catch (IOException | RuntimeException e) {
            if (source != null) {
                source.close();
            }
            vosk.close();
            tts.close();
            throw e;
        }
        VoiceTurnPrinter printer = new VoiceTurnPrinter(terminal.out(), terminal.err());
        // A recording in or a file out has no acoustic echo path: the canceller would never converge, so no front end
        AudioFrontEnd frontEnd = script != null || out != null
                ? new PassThroughFrontEnd("no audio front end: " + (script != null ? "--input" : "--out")
                        + " has no echo path (half-duplex)")
                : FrontEnds.open(frontEndSettings());
        VoiceActivityDetector detector = new VadFactory(m -> terminal.err().println("parley: " + m))
                .open(VadChoice.parse(vad), vadModelFile, settings.vad(), SileroVadSettings.defaults());
        try (VoicePipeline pipeline = new VoicePipeline(source, vosk, responder, tts, sink, settings, frontEnd,
                detector)) {
            pipeline.addListener(printer);
            pipeline.start();
            terminal.err().println("parley: listening" + (pushToTalk ? " (press Enter to talk, Enter again to end your turn)" : "")
                    + "; " + frontEnd.description() + "; " + (pipeline.fullDuplex()
                    ? "full duplex: speak over a reply to interrupt it"
                    : "half-duplex: speaking over a reply interrupts it, nothing said over it is transcribed")
                    + "; VAD " + detector.name());
            if (script != null) {
                script.awaitEnd();
                if (!printer.awaitReplies(120_000)) {
                    terminal.err().println("parley: gave up waiting for the last reply");
                }
            } else {
                readControls(pipeline);
            }
        }
    }

    /** The front end asked for by --aec and --noise-suppression. */
    FrontEndSettings frontEndSettings() {
        EchoCanceller canceller;
        try {
            canceller = EchoCanceller.parse(aec);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--aec: " + e.getMessage(), e);
        }
        NoiseSuppression ns;
        try {
            ns = NoiseSuppression.parse(noiseSuppression);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--noise-suppression: " + e.getMessage(), e);
        }
        return FrontEndSettings.defaults().withEchoCanceller(canceller).withNoiseSuppression(ns);
    }

    /** Reads stdin until end of input or /exit: Enter toggles push-to-talk. */
    private void readControls(VoicePipeline pipeline) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(terminal.in(), StandardCharsets.UTF_8));
        boolean pressed = false;
        String line;
        while ((line = reader.readLine()) != null && !line.strip().equals("/exit") && !line.strip().equals("/quit")) {
            if (pushToTalk) {
                pressed = !pressed;
                pipeline.pushToTalk(pressed);
                terminal.err().println(pressed ? "parley: talking... (Enter ends your turn)" : "parley: turn ended");
            }
        }
    }

    /**
     * The microphone, kept alive through faults: one that is busy or absent at start, or lost mid-turn, is said (by
     * {@link VoiceTurnPrinter#deviceFault}) and tried again until it works (docs/audio.md, "Device faults").
     */
    private AudioSource openMicrophone() {
        MicrophoneSource.Options options = MicrophoneSource.Options.defaults();
        return ResilientMicrophone.open(inputDevice == null ? options : options.withMixer(inputDevice),
                new JavaSoundLines(), RetryPolicy.defaults());
    }

    /** The speaker, kept alive through faults like the microphone; while it is away replies are printed only. */
    private AudioSink openSpeaker(int rate) {
        return ResilientSpeaker.open(outputDevice, rate, new JavaSoundLines(), RetryPolicy.defaults());
    }
}
