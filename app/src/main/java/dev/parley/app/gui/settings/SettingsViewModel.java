package dev.parley.app.gui.settings;

import dev.parley.app.store.AppSettings;
import dev.parley.app.store.Theme;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.WeightFormat;
import java.util.Locale;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The settings form: one property per field, as the user types it; {@link #validate()} turns them
 * into {@link AppSettings} or sets {@link #errorProperty()} to what is wrong.
 */
public final class SettingsViewModel {
    // Properties
    private final StringProperty modelPath = new SimpleStringProperty();
    private final ObjectProperty<BackendKind> backend = new SimpleObjectProperty<>();
    private final ObjectProperty<WeightFormat> weights = new SimpleObjectProperty<>();
    private final ObjectProperty<KvFormat> kvCache = new SimpleObjectProperty<>();
    private final StringProperty threads = new SimpleStringProperty();
    private final StringProperty contextSize = new SimpleStringProperty();
    private final StringProperty temperature = new SimpleStringProperty();
    private final StringProperty topP = new SimpleStringProperty();
    private final StringProperty maxTokens = new SimpleStringProperty();
    private final StringProperty systemPrompt = new SimpleStringProperty();
    private final StringProperty voice = new SimpleStringProperty();
    private final StringProperty speakingRate = new SimpleStringProperty();
    private final StringProperty inputDevice = new SimpleStringProperty();
    private final StringProperty outputDevice = new SimpleStringProperty();
    private final StringProperty endOfTurnSilence = new SimpleStringProperty();
    private final StringProperty pushToTalkKey = new SimpleStringProperty();
    private final StringProperty voskModel = new SimpleStringProperty();
    private final StringProperty contextPolicy = new SimpleStringProperty();
    private final StringProperty echoCancellation = new SimpleStringProperty();
    private final StringProperty noiseSuppression = new SimpleStringProperty();
    private final javafx.beans.property.BooleanProperty halfDuplex = new javafx.beans.property.SimpleBooleanProperty();
    private final javafx.beans.property.BooleanProperty listeningCue = new javafx.beans.property.SimpleBooleanProperty();
    private final StringProperty vad = new SimpleStringProperty();
    private final ObjectProperty<Theme> theme = new SimpleObjectProperty<>();
    private final StringProperty remoteUrl = new SimpleStringProperty();
    private final StringProperty remoteKey = new SimpleStringProperty();
    private final StringProperty remoteModel = new SimpleStringProperty();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

    public SettingsViewModel(AppSettings s) {
        modelPath.set(s.modelPath());
        backend.set(s.backend());
        weights.set(s.weights());
        kvCache.set(s.kvCache());
        threads.set(Integer.toString(s.threads()));
        contextSize.set(Integer.toString(s.contextSize()));
        temperature.set(number(s.temperature()));
        topP.set(number(s.topP()));
        maxTokens.set(Integer.toString(s.maxTokens()));
        systemPrompt.set(s.systemPrompt());
        voice.set(s.voice());
        speakingRate.set(number(s.speakingRate()));
        inputDevice.set(s.inputDevice());
        outputDevice.set(s.outputDevice());
        endOfTurnSilence.set(Integer.toString(s.endOfTurnSilenceMs()));
        pushToTalkKey.set(s.pushToTalkKey());
        voskModel.set(s.voskModel());
        contextPolicy.set(s.contextPolicy());
        echoCancellation.set(s.echoCancellation());
        noiseSuppression.set(s.noiseSuppression());
        halfDuplex.set(s.halfDuplex());
        listeningCue.set(s.listeningCue());
        vad.set(s.vad());
        theme.set(s.theme());
        remoteUrl.set(s.remoteUrl());
        remoteKey.set(s.remoteKey());
        remoteModel.set(s.remoteModel());
    }

    // Commands

    /** The settings the form describes, or empty with {@link #errorProperty()} saying what is wrong. */
    public Optional<AppSettings> validate() {
        try {
            AppSettings s = new AppSettings(modelPath.get(), backend.get(), integer("Threads", threads),
                    integer("Context size", contextSize), decimal("Temperature", temperature), decimal("Top-p", topP),
                    integer("Max tokens", maxTokens), systemPrompt.get(), voice.get(),
                    decimal("Speaking rate", speakingRate), inputDevice.get(), outputDevice.get(),
                    integer("End-of-turn silence", endOfTurnSilence), pushToTalkKey.get(), theme.get(),
                    weights.get(), kvCache.get(), remoteUrl.get(), remoteKey.get(), remoteModel.get(),
                    voskModel.get(), contextPolicy.get(), echoCancellation.get(), noiseSuppression.get(),
                    halfDuplex.get(), vad.get(), listeningCue.get());
            error.set("");
            return Optional.of(s);
        } catch (IllegalArgumentException | NullPointerException e) {
            error.set(e.getMessage());
            return Optional.empty();
        }
    }

    private static int integer(String name, StringProperty p) {
        try {
            return Integer.parseInt(p.get().strip());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + ": expected a whole number but found '" + p.get() + "'");
        }
    }

    private static double decimal(String name, StringProperty p) {
        try {
            return Double.parseDouble(p.get().strip());
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(name + ": expected a number but found '" + p.get() + "'");
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.1f", v) : Double.toString(v);
    }

    // Property accessors

    public StringProperty modelPathProperty() { return modelPath; }
    public ObjectProperty<BackendKind> backendProperty() { return backend; }
    public ObjectProperty<WeightFormat> weightsProperty() { return weights; }
    public ObjectProperty<KvFormat> kvCacheProperty() { return kvCache; }
    public StringProperty threadsProperty() { return threads; }
    public StringProperty contextSizeProperty() { return contextSize; }
    public StringProperty temperatureProperty() { return temperature; }
    public StringProperty topPProperty() { return topP; }
    public StringProperty maxTokensProperty() { return maxTokens; }
    public StringProperty systemPromptProperty() { return systemPrompt; }
    public StringProperty voiceProperty() { return voice; }
    public StringProperty speakingRateProperty() { return speakingRate; }
    public StringProperty inputDeviceProperty() { return inputDevice; }
    public StringProperty outputDeviceProperty() { return outputDevice; }
    public StringProperty endOfTurnSilenceProperty() { return endOfTurnSilence; }
    public StringProperty pushToTalkKeyProperty() { return pushToTalkKey; }
    /** The Vosk model folder ("" = the catalog's default speech model in the model store). */
    public StringProperty voskModelProperty() { return voskModel; }

    /** {@code keep-recent}, {@code keep-recent:FRACTION} or {@code stop}. */
    public StringProperty contextPolicyProperty() { return contextPolicy; }
    public StringProperty echoCancellationProperty() { return echoCancellation; }
    public StringProperty noiseSuppressionProperty() { return noiseSuppression; }
    public javafx.beans.property.BooleanProperty halfDuplexProperty() { return halfDuplex; }
    public javafx.beans.property.BooleanProperty listeningCueProperty() { return listeningCue; }
    public StringProperty vadProperty() { return vad; }
    public ObjectProperty<Theme> themeProperty() { return theme; }
    public StringProperty remoteUrlProperty() { return remoteUrl; }
    public StringProperty remoteKeyProperty() { return remoteKey; }
    public StringProperty remoteModelProperty() { return remoteModel; }
    public ReadOnlyStringProperty errorProperty() { return error.getReadOnlyProperty(); }
}
