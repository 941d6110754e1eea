package dev.parley.app.gui.settings;

import atlantafx.base.theme.Styles;
import dev.parley.app.store.AppSettings;
import dev.parley.app.store.Theme;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.WeightFormat;
import java.io.File;
import javafx.beans.property.StringProperty;
import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/** The settings dialog: model, engine, generation, voice and appearance; OK only with valid values. */
public final class SettingsDialog extends Dialog<AppSettings> {

    public SettingsDialog(Window owner, SettingsViewModel vm) {
        this(owner, vm, null);
    }

    /** With a microphone test that transcribes with the Vosk model {@code voskModels} finds (null: no test). */
    public SettingsDialog(Window owner, SettingsViewModel vm, MicrophoneTestViewModel.VoskModels voskModels) {
        initOwner(owner);
        setTitle("Settings");
        setHeaderText(null);
        getDialogPane().setId("settings-dialog");
        getDialogPane().getStylesheets().add(SettingsDialog.class.getResource(
                "/dev/parley/app/gui/settings/settings.css").toExternalForm());
        getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);

        GridPane form = new GridPane();
        form.getStyleClass().add("settings-form");
        int row = 0;
        form.add(section("Model"), 0, row++, 2, 1);
        TextField model = field("setting-model", vm.modelPathProperty());
        Button browse = new Button("Browse…");
        browse.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("GGUF models", "*.gguf"));
            File f = chooser.showOpenDialog(getDialogPane().getScene().getWindow());
            if (f != null) {
                vm.modelPathProperty().set(f.getAbsolutePath());
            }
        });
        HBox.setHgrow(model, Priority.ALWAYS);
        row = add(form, row, "Model file (.gguf)", new HBox(6, model, browse));
        ComboBox<BackendKind> backend = new ComboBox<>();
        backend.getItems().setAll(BackendKind.values());
        backend.valueProperty().bindBidirectional(vm.backendProperty());
        row = add(form, row, "Backend", backend);
        ComboBox<WeightFormat> weights = new ComboBox<>();
        weights.setId("setting-weights");
        weights.getItems().setAll(WeightFormat.values());
        weights.valueProperty().bindBidirectional(vm.weightsProperty());
        weights.setTooltip(new javafx.scene.control.Tooltip("STORED: the file's own precision; INT8: F16/BF16/F32 "
                + "weights quantized to Q8_0 when the model loads (about half the memory, faster decode)"));
        row = add(form, row, "Weights", weights);
        ComboBox<KvFormat> kv = new ComboBox<>();
        kv.setId("setting-kv");
        kv.getItems().setAll(KvFormat.values());
        kv.valueProperty().bindBidirectional(vm.kvCacheProperty());
        kv.setTooltip(new javafx.scene.control.Tooltip("Precision of the KV cache: F32, F16 (half the memory) or "
                + "INT8 (about a quarter, with a scale per head and position)"));
        row = add(form, row, "KV cache", kv);
        row = add(form, row, "Threads", field("setting-threads", vm.threadsProperty()));
        row = add(form, row, "Context size (tokens)", field("setting-context", vm.contextSizeProperty()));
        TextField remoteUrl = field("setting-remote-url", vm.remoteUrlProperty());
        remoteUrl.setPromptText("empty: the local model; e.g. http://127.0.0.1:8080/v1");
        javafx.scene.control.PasswordField remoteKey = new javafx.scene.control.PasswordField();
        remoteKey.setId("setting-remote-key");
        remoteKey.setPromptText("API key (optional)");
        remoteKey.textProperty().bindBidirectional(vm.remoteKeyProperty());
        TextField remoteModel = field("setting-remote-model", vm.remoteModelProperty());
        remoteModel.setPromptText("model (optional)");
        HBox.setHgrow(remoteUrl, Priority.ALWAYS);
        row = add(form, row, "Remote server URL / key", new HBox(6, remoteUrl, remoteKey, remoteModel));

        form.add(section("Replies"), 0, row++, 2, 1);
        row = add(form, row, "Temperature", field("setting-temperature", vm.temperatureProperty()));
        row = add(form, row, "Top-p", field("setting-top-p", vm.topPProperty()));
        row = add(form, row, "Max tokens", field("setting-max-tokens", vm.maxTokensProperty()));
        TextArea system = new TextArea();
        system.setId("setting-system-prompt");
        system.setPrefRowCount(3);
        system.setWrapText(true);
        system.textProperty().bindBidirectional(vm.systemPromptProperty());
        row = add(form, row, "System prompt", system);
        ComboBox<String> policy = new ComboBox<>();
        policy.setId("setting-context-policy");
        policy.setEditable(true);
        policy.getItems().setAll("keep-recent", "keep-recent:0.75", "stop");
        policy.valueProperty().bindBidirectional(vm.contextPolicyProperty());
        policy.setTooltip(new Tooltip("When a conversation outgrows the context window: keep-recent keeps the system "
                + "prompt and the most recent whole turns in half the window (keep-recent:F keeps a fraction F), "
                + "and the chat says when older messages were dropped; stop ends the reply when the window is full."));
        row = add(form, row, "Long conversations", policy);

        form.add(section("Voice"), 0, row++, 2, 1);
        row = add(form, row, "Voice", field("setting-voice", vm.voiceProperty()));
        row = add(form, row, "Speaking rate (×)", field("setting-rate", vm.speakingRateProperty()));
        TextField vosk = field("setting-vosk", vm.voskModelProperty());
        vosk.setPromptText("the catalog's Vosk small English model, once downloaded");
        Button browseVosk = new Button("Browse…");
        browseVosk.setOnAction(e -> {
            javafx.stage.DirectoryChooser chooser = new javafx.stage.DirectoryChooser();
            chooser.setTitle("Vosk model folder");
            File f = chooser.showDialog(getDialogPane().getScene().getWindow());
            if (f != null) {
                vm.voskModelProperty().set(f.getAbsolutePath());
            }
        });
        HBox.setHgrow(vosk, Priority.ALWAYS);
        row = add(form, row, "Speech model (Vosk folder)", new HBox(6, vosk, browseVosk));
        row = add(form, row, "Input device", devices("setting-input", vm.inputDeviceProperty(),
                dev.parley.audio.AudioDevices.names(),
                "Microphone (a Java Sound mixer); empty for the system default"));
        row = add(form, row, "Output device", devices("setting-output", vm.outputDeviceProperty(),
                dev.parley.audio.AudioDevices.names(),
                "Speaker (a Java Sound mixer); empty for the system default"));
        TextField silence = field("setting-silence", vm.endOfTurnSilenceProperty());
        silence.setTooltip(new javafx.scene.control.Tooltip("Hands-free: how long you must pause before Parley "
                + "takes its turn. Shorter answers sooner but may cut you off mid-thought (see docs/audio.md)."));
        row = add(form, row, "End-of-turn silence (ms)", silence);
        row = add(form, row, "Echo cancellation", choice("setting-aec", vm.echoCancellationProperty(),
                "Echo canceller: Parley hears you over its own voice (full duplex). on: Parley's own canceller, which "
                        + "keeps your voice whole under a loud echo; aec3: WebRTC's AEC3; off: half-duplex",
                "on", "aec3", "off"));
        row = add(form, row, "Noise suppression", choice("setting-noise", vm.noiseSuppressionProperty(),
                "Stationary noise suppression. auto (the default): high where the room's noise is steady, as a fan's,"
                        + " off in a bed of voices, where it made the recognizer mishear (docs/audio.md)",
                "auto", "off", "low", "moderate", "high", "very-high"));
        javafx.scene.control.CheckBox half = new javafx.scene.control.CheckBox("do not listen while speaking");
        half.setId("setting-half-duplex");
        half.selectedProperty().bindBidirectional(vm.halfDuplexProperty());
        row = add(form, row, "Half-duplex", half);
        javafx.scene.control.CheckBox cue = new javafx.scene.control.CheckBox("a soft sound when listening starts");
        cue.setId("setting-listening-cue");
        cue.setTooltip(new javafx.scene.control.Tooltip("Full duplex: 0.6 s of quiet noise a second after listening "
                + "starts teaches the echo canceller the room, so that it can hear you over the first reply"));
        cue.selectedProperty().bindBidirectional(vm.listeningCueProperty());
        row = add(form, row, "Listening cue", cue);
        row = add(form, row, "Voice activity", choice("setting-vad", vm.vadProperty(),
                "energy: levels; silero: the neural VAD (once available)", "energy", "silero"));
        row = add(form, row, "Push-to-talk key", field("setting-ptt", vm.pushToTalkKeyProperty()));
        // Microphone test: the input device and speech model above, as edited (the device opens only when asked).
        if (voskModels != null) {
            java.util.concurrent.ExecutorService control = java.util.concurrent.Executors.newSingleThreadExecutor(
                    r -> Thread.ofPlatform().daemon().name("parley-mic-test-control").unstarted(r));
            MicrophoneTestViewModel mic = new MicrophoneTestViewModel(
                    () -> vm.inputDeviceProperty().get() == null ? "" : vm.inputDeviceProperty().get(),
                    () -> vm.voskModelProperty().get() == null ? "" : vm.voskModelProperty().get(), voskModels,
                    javafx.application.Platform::runLater, control);
            row = add(form, row, "Microphone test", new MicrophoneTestView(mic));
            setOnHidden(e -> {
                mic.close();          // queued before the shutdown: the device is released
                control.shutdown();
            });
        }

        form.add(section("Appearance"), 0, row++, 2, 1);
        ComboBox<Theme> theme = new ComboBox<>();
        theme.setId("setting-theme");
        theme.getItems().setAll(Theme.values());
        theme.valueProperty().bindBidirectional(vm.themeProperty());
        row = add(form, row, "Theme", theme);

        Label error = new Label();
        error.setId("settings-error");
        error.getStyleClass().add(Styles.DANGER);
        error.setWrapText(true);
        error.textProperty().bind(vm.errorProperty());
        form.add(error, 0, row, 2, 1);
        javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(form);
        scroll.setFitToWidth(true);
        scroll.setPrefViewportHeight(540);
        scroll.getStyleClass().add("settings-scroll");
        getDialogPane().setContent(scroll);

        getDialogPane().lookupButton(ButtonType.OK).addEventFilter(ActionEvent.ACTION, e -> {
            if (vm.validate().isEmpty()) {
                e.consume();
            }
        });
        setResultConverter(button -> button == ButtonType.OK ? vm.validate().orElse(null) : null);
    }

    private static Label section(String title) {
        Label l = new Label(title);
        l.getStyleClass().addAll(Styles.TITLE_4, "settings-section");
        return l;
    }

    /** An editable list of the audio devices Java Sound knows; empty text means the system default. */
    private static ComboBox<String> devices(String id, StringProperty property, java.util.List<String> names,
                                            String tooltip) {
        ComboBox<String> box = new ComboBox<>();
        box.setId(id);
        box.setEditable(true);
        box.getItems().add("");
        box.getItems().addAll(names);
        box.setPromptText("system default");
        box.setMaxWidth(Double.MAX_VALUE);
        box.getEditor().textProperty().bindBidirectional(property);
        box.setTooltip(new javafx.scene.control.Tooltip(tooltip));
        return box;
    }

    private static ComboBox<String> choice(String id, javafx.beans.property.StringProperty value, String tip,
                                           String... items) {
        ComboBox<String> box = new ComboBox<>();
        box.setId(id);
        box.getItems().setAll(items);
        box.valueProperty().bindBidirectional(value);
        box.setTooltip(new Tooltip(tip));
        return box;
    }

    private static TextField field(String id, StringProperty property) {
        TextField f = new TextField();
        f.setId(id);
        f.textProperty().bindBidirectional(property);
        return f;
    }

    private static int add(GridPane form, int row, String label, javafx.scene.Node control) {
        form.add(new Label(label), 0, row);
        form.add(control, 1, row);
        GridPane.setHgrow(control, Priority.ALWAYS);
        return row + 1;
    }
}
