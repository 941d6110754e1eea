package dev.parley.app.gui;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import atlantafx.base.theme.Styles;
import dev.parley.app.gui.chat.ChatView;
import dev.parley.app.gui.chat.ChatViewModel;
import dev.parley.app.gui.conversations.ConversationListView;
import dev.parley.app.gui.conversations.ConversationListViewModel;
import dev.parley.app.gui.dashboard.DashboardView;
import dev.parley.app.gui.dashboard.DashboardViewModel;
import dev.parley.app.gui.settings.SettingsDialog;
import dev.parley.app.gui.settings.SettingsViewModel;
import dev.parley.app.gui.voice.VoiceOptions;
import dev.parley.app.gui.voice.VoiceView;
import dev.parley.app.gui.voice.VoiceViewModel;
import dev.parley.app.store.AppSettings;
import dev.parley.app.store.ConversationExporter;
import dev.parley.app.store.ConversationSummary;
import dev.parley.app.store.Theme;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.Executor;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * The main window (1280×800): the conversation list on the left, chat and dashboard tabs, and a
 * top bar with the model's status, the theme switch and Settings. Wires the view models together.
 */
public final class MainWindow {
    public static final double WIDTH = 1280;
    public static final double HEIGHT = 800;

    private final AppContext context;
    private final Stage stage;
    private final Scene scene;
    private final MainViewModel main;
    private final ChatViewModel chat;
    private final ConversationListViewModel conversations;
    private final DashboardViewModel dashboard;
    private final DashboardView dashboardView;
    private final TabPane tabs;
    private final VoiceViewModel voiceViewModel;
    private final dev.parley.app.gui.models.ModelManagerWindow models;

    private MainWindow(AppContext context, Stage stage) {
        this.context = context;
        this.stage = stage;
        Executor ui = Platform::runLater;
        main = new MainViewModel(context, ui);
        conversations = new ConversationListViewModel(context.store(), id -> context.chat().forget(id));
        chat = new ChatViewModel(context.chat(), context::generationParams, ui, conversations::refresh,
                id -> {
                    conversations.refresh();
                    conversations.select(id);
                });
        chat.modelReadyProperty().bind(main.readyProperty());
        conversations.selectedProperty().addListener((o, a, c) -> chat.open(c == null ? -1 : c.id()));
        dashboard = new DashboardViewModel();
        models = dev.parley.app.gui.models.ModelManagerWindow.forApp(stage, context, main);
        VoiceViewModel voice = new VoiceViewModel(context.voice(), ui);

        AppSettings settings = context.settings();
        ConversationListView list = new ConversationListView(conversations, this::export);
        VoiceView voiceView = new VoiceView(voice, () -> main.settingsProperty().get().pushToTalkKey());
        ChatView chatView = new ChatView(chat, voiceView);
        dashboardView = new DashboardView(dashboard, context.chat()::snapshot, context.voice()::frontEndStats);

        tabs = new TabPane(new Tab("Chat", chatView), new Tab("Dashboard", dashboardView));
        tabs.setId("main-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);

        BorderPane root = new BorderPane(tabs);
        root.setId("main-window");
        root.getStylesheets().add(MainWindow.class.getResource("/dev/parley/app/gui/main.css").toExternalForm());
        root.setTop(topBar());
        root.setLeft(list);
        scene = new Scene(root, WIDTH, HEIGHT);
        installPushToTalk(voice);
        dev.parley.app.gui.models.FileDrop.attach(scene, models::open);   // a .gguf dropped on the window opens it
        applyTheme(settings.theme());
        main.settingsProperty().addListener((o, a, s) -> {
            applyTheme(s.theme());
            if (!VoiceOptions.of(s).equals(VoiceOptions.of(a))) {
                voice.apply(VoiceOptions.of(s));
            }
        });

        stage.setTitle("Parley");
        stage.setScene(scene);
        stage.setMinWidth(900);
        stage.setMinHeight(600);
        stage.setOnHidden(e -> dashboardView.stop());
        voice.start(chat.spokenTurns());      // in the background: Vosk and MaryTTS take seconds
        voiceViewModel = voice;
        conversations.items().stream().findFirst().ifPresent(c -> conversations.select(c.id()));
    }

    /** Builds the window on {@code stage}, shows it and starts loading the model of the settings. */
    public static MainWindow show(AppContext context, Stage stage) {
        MainWindow w = new MainWindow(context, stage);
        stage.show();
        w.main.loadModel();
        return w;
    }

    private VBox topBar() {
        Label title = new Label("Parley");
        title.getStyleClass().addAll(Styles.TITLE_3, "app-title");
        ProgressIndicator loading = new ProgressIndicator();
        loading.setId("model-loading");
        loading.setPrefSize(18, 18);
        loading.progressProperty().bind(main.progressProperty());
        loading.visibleProperty().bind(main.loadingProperty());
        loading.managedProperty().bind(main.loadingProperty());
        Label status = new Label();
        status.setId("model-status");
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.textProperty().bind(main.modelStatusProperty());
        Button demo = new Button("Use the demo model");
        demo.setId("use-demo-model");
        demo.getStyleClass().addAll(Styles.ACCENT, Styles.SMALL);
        demo.setTooltip(new Tooltip("Make a small model with random weights (it talks nonsense) to try Parley out"));
        demo.setOnAction(e -> main.useDemoModel());
        java.util.OptionalLong size = main.defaultModel().size();
        Button download = new Button("Download " + main.defaultModel().name()
                + (size.isPresent() ? " (" + dev.parley.models.download.Bytes.human(size.getAsLong()) + ")" : ""));
        download.setId("download-default-model");
        download.getStyleClass().addAll(Styles.SUCCESS, Styles.SMALL);
        download.setTooltip(new Tooltip("Download the catalog's default model (" + main.defaultModel().license()
                + "), verified and resumable; Parley runs it on this computer"));
        download.setOnAction(e -> main.downloadDefaultModel());
        Button cancel = new Button("Cancel download");
        cancel.setId("cancel-download");
        cancel.getStyleClass().add(Styles.SMALL);
        cancel.setOnAction(e -> main.cancelDownload());
        cancel.visibleProperty().bind(main.downloadingProperty());
        cancel.managedProperty().bind(main.downloadingProperty());
        Button choose = new Button("Choose a model file…");
        choose.getStyleClass().add(Styles.SMALL);
        choose.setOnAction(e -> openSettings());
        for (Button b : java.util.List.of(download, demo, choose)) {
            b.visibleProperty().bind(main.noModelProperty());
            b.managedProperty().bind(main.noModelProperty());
        }
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        ToggleButton dark = new ToggleButton("Dark");
        dark.setId("theme-toggle");
        dark.setTooltip(new Tooltip("Switch between the light and the dark theme"));
        dark.setSelected(main.settingsProperty().get().theme() == Theme.DARK);
        dark.selectedProperty().addListener((o, a, on) -> applySettings(
                main.settingsProperty().get().withTheme(on ? Theme.DARK : Theme.LIGHT)));
        Button settings = new Button("Settings");
        settings.setId("settings-button");
        settings.setOnAction(e -> openSettings());
        Button modelsButton = new Button("Models");
        modelsButton.setId("models-button");
        modelsButton.setOnAction(e -> models.show());
        for (javafx.scene.layout.Region fixed : java.util.List.of(title, dark, modelsButton, settings, download, cancel, demo, choose)) {
            fixed.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        status.setMinWidth(0);
        HBox bar = new HBox(10, title, loading, status, grow, dark, modelsButton, settings);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("top-bar");
        // The first-run choices get a row of their own, so that nothing in the bar is cut short.
        Label start = new Label("To start, pick a model:");
        HBox firstRun = new HBox(10, start, download, cancel, demo, choose);
        firstRun.setId("first-run-bar");
        firstRun.setAlignment(Pos.CENTER_LEFT);
        firstRun.getStyleClass().add("first-run-bar");
        var shown = main.noModelProperty().or(main.downloadingProperty());
        firstRun.visibleProperty().bind(shown);
        firstRun.managedProperty().bind(shown);
        return new VBox(bar, firstRun);
    }

    /** Opens the settings dialog and applies what it returns. */
    public void openSettings() {
        new SettingsDialog(stage, new SettingsViewModel(main.settingsProperty().get())).showAndWait()
                .ifPresent(this::applySettings);
    }

    private void applySettings(AppSettings next) {
        try {
            main.apply(next);
        } catch (IOException e) {
            new Alert(Alert.AlertType.ERROR, "Could not save the settings: " + e.getMessage()).showAndWait();
        }
    }

    private static void applyTheme(Theme theme) {
        Application.setUserAgentStylesheet(theme == Theme.DARK
                ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet());
    }

    /** The push-to-talk key of the current settings: held down, Parley listens. */
    private void installPushToTalk(VoiceViewModel voice) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (pushToTalkKey().match(e)) {
                e.consume();
                voice.pushToTalk(true);
            }
        });
        scene.addEventFilter(KeyEvent.KEY_RELEASED, e -> {
            KeyCode code = pushToTalkKey() instanceof javafx.scene.input.KeyCodeCombination kc ? kc.getCode()
                    : KeyCode.SPACE;
            if (e.getCode() == code && voice.talkingProperty().get()) {
                e.consume();
                voice.pushToTalk(false);
            }
        });
    }

    private KeyCombination pushToTalkKey() {
        try {
            return KeyCombination.valueOf(main.settingsProperty().get().pushToTalkKey());
        } catch (IllegalArgumentException e) {
            return KeyCombination.valueOf("Ctrl+Space");
        }
    }

    private void export(ConversationSummary c) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export conversation");
        chooser.setInitialFileName(c.title().replaceAll("[^\\p{L}\\p{N} _-]", "").strip() + ".md");
        chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Markdown", "*.md"),
                new FileChooser.ExtensionFilter("JSON", "*.json"));
        File file = chooser.showSaveDialog(stage);
        if (file == null) {
            return;
        }
        ConversationExporter exporter = new ConversationExporter();
        var messages = context.store().messages(c.id());
        String text = file.getName().endsWith(".json") ? exporter.json(c, messages) : exporter.markdown(c, messages);
        try {
            Files.writeString(file.toPath(), text);
        } catch (IOException e) {
            new Alert(Alert.AlertType.ERROR, "Could not write " + file + ": " + e.getMessage()).showAndWait();
        }
    }

    /** Shows the chat ({@code 0}) or dashboard ({@code 1}) tab. */
    public void showTab(int index) {
        tabs.getSelectionModel().select(index);
    }

    public Scene scene() {
        return scene;
    }

    public Stage stage() {
        return stage;
    }

    public MainViewModel mainViewModel() {
        return main;
    }

    public ChatViewModel chatViewModel() {
        return chat;
    }

    public ConversationListViewModel conversationsViewModel() {
        return conversations;
    }

    public VoiceViewModel voiceViewModel() {
        return voiceViewModel;
    }

    /** The model manager (its own window, opened by the Models button). */
    public dev.parley.app.gui.models.ModelManagerWindow modelManager() {
        return models;
    }

    public DashboardViewModel dashboardViewModel() {
        return dashboard;
    }

    /** Stops the dashboard's timer (the context is closed by its owner). */
    public void dispose() {
        dashboardView.stop();
        models.close();
    }
}
