package dev.parley.app.store;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.WeightFormat;
import dev.parley.engine.generate.ContextPolicy;
import java.util.Objects;

/**
 * Everything the user can set in the app, persisted by {@link SettingsStore}. The compact
 * constructor rejects values the engine or the voice loop could not use, saying what was expected.
 *
 * @param modelPath          the GGUF file to load, or "" for none chosen yet
 * @param threads            engine worker threads (1..256)
 * @param contextSize        KV cache positions (16..1,048,576; capped at the model's context)
 * @param temperature        sampling temperature (0 = greedy, up to 5)
 * @param topP               nucleus probability mass in (0, 1]
 * @param maxTokens          most tokens per reply (1..65,536)
 * @param voice              the speech synthesizer's voice name ("" = its default)
 * @param speakingRate       speaking speed relative to normal (0.5..2)
 * @param inputDevice        microphone name ("" = system default)
 * @param outputDevice       speaker name ("" = system default)
 * @param endOfTurnSilenceMs silence that ends a spoken turn in hands-free mode (200..5000 ms)
 * @param pushToTalkKey      JavaFX key combination name, e.g. "Ctrl+Space"
 * @param remoteUrl          base URL of an OpenAI-compatible server to use instead of the local model, e.g.
 *                           {@code http://127.0.0.1:8080/v1}; "" for the local model
 * @param remoteKey          the server's API key ("" for none)
 * @param remoteModel        the model id to ask the server for ("" for the first it lists)
 * @param voskModel          folder of the Vosk speech model ("" = the catalog's default one in the model store)
 * @param echoCancellation   the voice front end's echo canceller, "on" (Parley's), "aec3" (WebRTC's) or "off"
 *                           (off: half-duplex)
 * @param noiseSuppression   its noise suppression: auto (high in steady noise only), off, low, moderate, high,
 *                           very-high
 * @param halfDuplex         do not listen while speaking even where echo is cancelled
 * @param vad                voice activity detector: energy or silero
 * @param listeningCue       full duplex: play a soft sound a second after listening starts, so that the echo canceller
 *                           learns the room before the first reply (without it the first words of the first reply
 *                           can hide a barge-in)
 */
public record AppSettings(String modelPath, BackendKind backend, int threads, int contextSize, double temperature,
                          double topP, int maxTokens, String systemPrompt, String voice, double speakingRate,
                          String inputDevice, String outputDevice, int endOfTurnSilenceMs, String pushToTalkKey,
                          Theme theme, WeightFormat weights, KvFormat kvCache, String remoteUrl, String remoteKey,
                          String remoteModel, String voskModel, String contextPolicy, String echoCancellation,
                          String noiseSuppression, boolean halfDuplex, String vad,
                          boolean listeningCue) {

    public AppSettings {
        modelPath = modelPath == null ? "" : modelPath.strip();
        Objects.requireNonNull(backend, "backend");
        range("threads", threads, 1, 256);
        range("context size", contextSize, 16, 1 << 20);
        if (!(temperature >= 0 && temperature <= 5)) {
            throw new IllegalArgumentException("expected a temperature in [0, 5] but found " + temperature);
        }
        if (!(topP > 0 && topP <= 1)) {
            throw new IllegalArgumentException("expected a top-p in (0, 1] but found " + topP);
        }
        range("max tokens", maxTokens, 1, 65_536);
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        voice = voice == null ? "" : voice;
        if (!(speakingRate >= 0.5 && speakingRate <= 2)) {
            throw new IllegalArgumentException("expected a speaking rate in [0.5, 2] but found " + speakingRate);
        }
        inputDevice = inputDevice == null ? "" : inputDevice;
        outputDevice = outputDevice == null ? "" : outputDevice;
        range("end-of-turn silence (ms)", endOfTurnSilenceMs, 200, 5000);
        if (pushToTalkKey == null || pushToTalkKey.isBlank()) {
            throw new IllegalArgumentException("expected a push-to-talk key such as Ctrl+Space but found none");
        }
        Objects.requireNonNull(theme, "theme");
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(kvCache, "KV cache precision");
        remoteUrl = remoteUrl == null ? "" : remoteUrl.strip();
        if (!remoteUrl.isEmpty() && !remoteUrl.matches("(?i)https?://[^/\\s]+(/\\S*)?")) {
            throw new IllegalArgumentException("expected a remote server URL such as http://127.0.0.1:8080/v1 (or "
                    + "nothing for the local model) but found " + remoteUrl);
        }
        remoteKey = remoteKey == null ? "" : remoteKey.strip();
        remoteModel = remoteModel == null ? "" : remoteModel.strip();
        voskModel = voskModel == null ? "" : voskModel.strip();
        contextPolicy = contextPolicy == null || contextPolicy.isBlank() ? ContextPolicy.DEFAULT.toString()
                : ContextPolicy.parse(contextPolicy).toString();
        echoCancellation = echoCancellation == null || echoCancellation.isBlank() ? "on"
                : dev.parley.audio.frontend.EchoCanceller.parse(echoCancellation).label();
        noiseSuppression = noiseSuppression == null || noiseSuppression.isBlank()
                ? dev.parley.audio.frontend.FrontEndSettings.defaults().noiseSuppression().label()
                : dev.parley.audio.frontend.NoiseSuppression.parse(noiseSuppression).label();
        vad = vad == null || vad.isBlank() ? "energy" : vad.strip().toLowerCase(java.util.Locale.ROOT);
        if (!vad.equals("energy") && !vad.equals("silero")) {
            throw new IllegalArgumentException("expected a voice activity detector energy or silero but found " + vad);
        }
    }

    /** The settings with the default voice front end (echo cancellation on, full duplex, energy VAD, listening cue). */
    public AppSettings(String modelPath, BackendKind backend, int threads, int contextSize, double temperature,
                       double topP, int maxTokens, String systemPrompt, String voice, double speakingRate,
                       String inputDevice, String outputDevice, int endOfTurnSilenceMs, String pushToTalkKey,
                       Theme theme, WeightFormat weights, KvFormat kvCache, String remoteUrl, String remoteKey,
                       String remoteModel, String voskModel, String contextPolicy) {
        this(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt, voice, speakingRate,
                inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights, kvCache, remoteUrl,
                remoteKey, remoteModel, voskModel, contextPolicy, "", "", false, "", true);
    }

    /** With this voice front end. */
    public AppSettings withVoiceFrontEnd(String aec, String ns, boolean half, String vadName) {
        return new AppSettings(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights,
                kvCache, remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy, aec, ns, half, vadName,
                listeningCue);
    }

    /** With the listening cue of full duplex on or off. */
    public AppSettings withListeningCue(boolean on) {
        return new AppSettings(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights,
                kvCache, remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy, echoCancellation, noiseSuppression,
                halfDuplex, vad, on);
    }

    /** The settings with the default context policy (keep the system message and the most recent turns). */
    public AppSettings(String modelPath, BackendKind backend, int threads, int contextSize, double temperature,
                       double topP, int maxTokens, String systemPrompt, String voice, double speakingRate,
                       String inputDevice, String outputDevice, int endOfTurnSilenceMs, String pushToTalkKey,
                       Theme theme, WeightFormat weights, KvFormat kvCache, String remoteUrl, String remoteKey,
                       String remoteModel, String voskModel) {
        this(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt, voice, speakingRate,
                inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights, kvCache, remoteUrl,
                remoteKey, remoteModel, voskModel, "");
    }

    /** What happens when a conversation outgrows the context window, as {@link ContextPolicy#parse} reads it. */
    public ContextPolicy contextPolicyValue() {
        return ContextPolicy.parse(contextPolicy);
    }

    /** The settings without a remote server (the local model). */
    public AppSettings(String modelPath, BackendKind backend, int threads, int contextSize, double temperature,
                       double topP, int maxTokens, String systemPrompt, String voice, double speakingRate,
                       String inputDevice, String outputDevice, int endOfTurnSilenceMs, String pushToTalkKey,
                       Theme theme, WeightFormat weights, KvFormat kvCache) {
        this(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt, voice, speakingRate,
                inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights, kvCache, "", "", "", "");
    }

    /** True when replies should come from the remote server. */
    public boolean usesRemote() {
        return !remoteUrl.isEmpty();
    }

    public AppSettings withRemote(String url, String key, String model) {
        return new AppSettings(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights,
                kvCache, url, key, model, voskModel, contextPolicy, echoCancellation, noiseSuppression, halfDuplex,
                vad, listeningCue);
    }

    /** The settings of a first start. */
    public static AppSettings defaults() {
        int cores = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
        return new AppSettings("", BackendKind.VECTOR, cores, 4096, 0.7, 0.95, 512,
                "You are Parley, a friendly assistant. Keep answers short and clear.", "", 1.0, "", "",
                dev.parley.audio.VoiceSettings.DEFAULT_END_OF_TURN_SILENCE_MILLIS,
                "Ctrl+Space", Theme.LIGHT, WeightFormat.STORED, KvFormat.F32);
    }

    public AppSettings withModelPath(String path) {
        return new AppSettings(path, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt, voice,
                speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights, kvCache,
                remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy,
                echoCancellation, noiseSuppression, halfDuplex, vad, listeningCue);
    }

    /** The model to load with the context and KV cache precision to load it at (the model manager's "Use"). */
    public AppSettings withModel(String path, int newContextSize, KvFormat newKv) {
        return new AppSettings(path, backend, threads, newContextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme, weights,
                newKv, remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy, echoCancellation, noiseSuppression,
                halfDuplex, vad, listeningCue);
    }

    /** With {@code ms} of silence ending a hands-free turn. */
    public AppSettings withEndOfTurnSilence(int ms) {
        return new AppSettings(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, ms, pushToTalkKey, theme, weights, kvCache, remoteUrl,
                remoteKey, remoteModel, voskModel, contextPolicy, echoCancellation, noiseSuppression, halfDuplex, vad,
                listeningCue);
    }

    public AppSettings withTheme(Theme t) {
        return new AppSettings(modelPath, backend, threads, contextSize, temperature, topP, maxTokens, systemPrompt,
                voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, t, weights, kvCache,
                remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy,
                echoCancellation, noiseSuppression, halfDuplex, vad, listeningCue);
    }

    public AppSettings withSampling(double newTemperature, double newTopP, int newMaxTokens) {
        return new AppSettings(modelPath, backend, threads, contextSize, newTemperature, newTopP, newMaxTokens,
                systemPrompt, voice, speakingRate, inputDevice, outputDevice, endOfTurnSilenceMs, pushToTalkKey, theme,
                weights, kvCache, remoteUrl, remoteKey, remoteModel, voskModel, contextPolicy,
                echoCancellation, noiseSuppression, halfDuplex, vad, listeningCue);
    }

    private static void range(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("expected " + name + " in [" + min + ", " + max + "] but found " + value);
        }
    }
}
