package dev.parley.app.gui.voice;

import dev.parley.app.store.AppSettings;

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
 */
public record VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                           int endOfTurnSilenceMs, double speakingRate) {
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
    }

    /** Options at the voice's own pace. */
    public VoiceOptions(String voskModel, String inputDevice, String outputDevice, String voice,
                        int endOfTurnSilenceMs) {
        this(voskModel, inputDevice, outputDevice, voice, endOfTurnSilenceMs, 1.0);
    }

    /** The voice part of {@code settings}. */
    public static VoiceOptions of(AppSettings settings) {
        return new VoiceOptions(settings.voskModel(), settings.inputDevice(), settings.outputDevice(), settings.voice(),
                settings.endOfTurnSilenceMs(), settings.speakingRate());
    }
}
