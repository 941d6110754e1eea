package dev.parley.app.gui.voice;

import dev.parley.app.store.AppSettings;
import dev.parley.audio.frontend.EchoCanceller;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.NoiseSuppression;
import dev.parley.audio.vad.VadChoice;

/**
 * The settings the voice loop is built from, taken from {@link AppSettings}: which Vosk model, which
 * capture and playback devices, which MaryTTS voice, and the silence that ends a hands-free turn.
 *
 * @param voskModel          Vosk model folder, or "" for the catalog's default speech model in the model store
 * @param inputDevice        capture mixer name, or "" for the system default
 * @param outputDevice       playback mixer name, or "" for the system default
 * @param voice              MaryTTS voice name, or "" for the bundled default
 * @param endOfTurnSilenceMs silence after speech that ends a hands-free turn
 * @param speakingRate       how fast Parley speaks, 0.5 to 2 times the voice's own pace
 * @param frontEnd           the audio front end (echo cancellation, noise suppression)
 * @param halfDuplex         do not listen while speaking even where echo is cancelled
 * @param vad                the voice activity detector: the energy one, or Silero where its model is installed
 * @param listeningCue       full duplex: play the listening cue a second after listening starts
 */
public record VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                           int endOfTurnSilenceMs, double speakingRate, FrontEndSettings frontEnd, boolean halfDuplex, VadChoice vad,
                           boolean listeningCue) {
    public VoiceOptions {
        voskModel = voskModel == null ? "" : voskModel.strip();
        inputDevice = inputDevice == null ? "" : inputDevice.strip();
        outputDevice = outputDevice == null ? "" : outputDevice.strip();
        voice = voice == null ? "" : voice.strip();
        if (endOfTurnSilenceMs < 100 || endOfTurnSilenceMs > 10_000) {
            throw new IllegalArgumentException("expected an end-of-turn silence of 100..10000 ms but found "
                    + endOfTurnSilenceMs);
        }
        if (!(speakingRate >= 0.5 && speakingRate <= 2)) {
            throw new IllegalArgumentException("expected a speaking rate from 0.5 to 2 but found " + speakingRate);
        }
        frontEnd = frontEnd == null ? FrontEndSettings.defaults() : frontEnd;
        vad = vad == null ? VadChoice.ENERGY : vad;
    }

    /** Options with the energy voice activity detector and the listening cue. */
    public VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                        int endOfTurnSilenceMs, double speakingRate, FrontEndSettings frontEnd, boolean halfDuplex) {
        this(voskModel, inputDevice, outputDevice, voice, endOfTurnSilenceMs, speakingRate, frontEnd, halfDuplex, null, true);
    }

    /** These options at another speaking rate. */
    public VoiceOptions withSpeakingRate(double rate) {
        return new VoiceOptions(voskModel, inputDevice, outputDevice, voice, endOfTurnSilenceMs, rate, frontEnd,
                halfDuplex, vad, listeningCue);
    }

    /** Options with the default front end (echo cancellation, full duplex). */
    public VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                        int endOfTurnSilenceMs, double speakingRate) {
        this(voskModel, inputDevice, outputDevice, voice, endOfTurnSilenceMs, speakingRate, null, false);
    }

    /** Options at the voice's own pace. */
    public VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                        int endOfTurnSilenceMs) {
        this(voskModel, inputDevice, outputDevice, voice, endOfTurnSilenceMs, 1.0);
    }

    /** The voice part of {@code settings}. */
    public static VoiceOptions of(AppSettings settings) {
        return new VoiceOptions(settings.voskModel(), settings.inputDevice(), settings.outputDevice(), settings.voice(),
                settings.endOfTurnSilenceMs(), settings.speakingRate(),
                FrontEndSettings.defaults().withEchoCanceller(EchoCanceller.parse(settings.echoCancellation()))
                        .withNoiseSuppression(NoiseSuppression.parse(settings.noiseSuppression())),
                settings.halfDuplex(), VadChoice.parse(settings.vad()), settings.listeningCue());
    }
}
