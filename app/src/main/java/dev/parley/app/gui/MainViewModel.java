package dev.parley.app.gui;

import dev.parley.app.service.ModelRequest;
import dev.parley.app.store.AppSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** The window's state: the model (loading, ready, or why not) and the settings in force. */
public final class MainViewModel {
    private final AppContext context;
    private final Executor ui;

    // Properties
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper ready = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper modelStatus = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<AppSettings> settings = new ReadOnlyObjectWrapper<>();

    public MainViewModel(AppContext context, Executor ui) {
        this.context = context;
        this.ui = ui;
        settings.set(context.settings());
    }

    // Commands

    /** Loads the model of the settings in the background (or says that none is chosen). */
    public void loadModel() {
        AppSettings s = settings.get();
        if (s.modelPath().isBlank()) {
            ready.set(false);
            modelStatus.set("No model chosen: open Settings and pick a .gguf file (or run: parley models setup)");
            return;
        }
        Path path = Path.of(s.modelPath());
        loading.set(true);
        ready.set(false);
        modelStatus.set("Loading " + path.getFileName() + "…");
        context.chat().loadModel(new ModelRequest(path, s.backend(), s.threads(), s.contextSize()))
                .whenComplete((info, error) -> ui.execute(() -> {
                    loading.set(false);
                    if (error != null) {
                        Throwable cause = error.getCause() != null ? error.getCause() : error;
                        modelStatus.set("Could not load the model: " + cause.getMessage());
                    } else {
                        ready.set(true);
                        modelStatus.set(info.name() + " · " + info.backend().label() + " · " + info.threads()
                                + " threads · " + info.contextSize() + " tokens of context");
                    }
                }));
    }

    /** Saves new settings; reloads the model when the model or engine settings changed. */
    public void apply(AppSettings next) throws IOException {
        AppSettings before = settings.get();
        context.saveSettings(next);
        settings.set(next);
        boolean engineChanged = !Objects.equals(before.modelPath(), next.modelPath())
                || before.backend() != next.backend() || before.threads() != next.threads()
                || before.contextSize() != next.contextSize();
        if (engineChanged || !ready.get()) {
            loadModel();
        }
    }

    // Property accessors

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty readyProperty() {
        return ready.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty modelStatusProperty() {
        return modelStatus.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<AppSettings> settingsProperty() {
        return settings.getReadOnlyProperty();
    }
}
