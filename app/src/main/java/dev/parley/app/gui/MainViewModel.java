package dev.parley.app.gui;

import dev.parley.app.service.ModelRequest;
import dev.parley.app.store.AppSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.download.Bytes;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadCancelledException;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.store.DemoModel;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
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
    private final Executor background = r -> {
        Thread t = new Thread(r, "parley-first-run");
        t.setDaemon(true);
        t.start();
    };

    // Properties
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper ready = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper modelStatus = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<AppSettings> settings = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper noModel = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyBooleanWrapper downloading = new ReadOnlyBooleanWrapper();
    private volatile CancelToken downloadCancel;

    public MainViewModel(AppContext context, Executor ui) {
        this.context = context;
        this.ui = ui;
        settings.set(context.settings());
    }

    // Commands

    /**
     * Loads the model of the settings in the background. With none chosen yet (the first run), adopts
     * the first readable model installed in the model store, else says so and offers the choices.
     */
    public void loadModel() {
        AppSettings s = settings.get();
        if (s.usesRemote()) {
            connectRemote(s);
            return;
        }
        if (s.modelPath().isBlank()) {
            ready.set(false);
            loading.set(true);
            modelStatus.set("Looking for an installed model…");
            CompletableFuture.supplyAsync(this::firstInstalledModel, background).whenComplete((found, error) ->
                    ui.execute(() -> {
                        loading.set(false);
                        if (found != null && !found.isEmpty()) {
                            adopt(Path.of(found));
                        } else {
                            noModel.set(true);
                            modelStatus.set("No model installed: download " + defaultModel().name()
                                    + ", use the demo model, or choose a .gguf file");
                        }
                    }));
            return;
        }
        noModel.set(false);
        Path path = Path.of(s.modelPath());
        loading.set(true);
        ready.set(false);
        modelStatus.set("Loading " + path.getFileName() + "…");
        context.chat().loadModel(new ModelRequest(path, s.backend(), s.threads(), s.contextSize(), s.weights(),
                s.kvCache()))
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

    /** Switches replies to the remote server of the settings, off the FX thread. */
    private void connectRemote(AppSettings s) {
        noModel.set(false);
        loading.set(true);
        ready.set(false);
        modelStatus.set("Connecting to " + s.remoteUrl() + "…");
        context.chat().connectRemote(s.remoteUrl(), s.remoteKey(), s.remoteModel())
                .whenComplete((info, error) -> ui.execute(() -> {
                    loading.set(false);
                    if (error != null) {
                        Throwable cause = error.getCause() != null ? error.getCause() : error;
                        modelStatus.set("Could not use the remote server: " + cause.getMessage());
                    } else {
                        ready.set(true);
                        modelStatus.set(info.name() + " · remote · " + info.location());
                    }
                }));
    }

    /** The catalog's default language model: what the first run offers to download. */
    public CatalogEntry defaultModel() {
        return context.catalog().defaultEntry(EntryKind.LLM);
    }

    /**
     * Downloads the catalog's default model into the model store (resumable, verified, with progress
     * in the status line) and loads it. A failure (offline, say) is said in the status line and the
     * choices are offered again; {@link #cancelDownload()} stops it, keeping the part for a resume.
     */
    public void downloadDefaultModel() {
        CatalogEntry entry = defaultModel();
        CancelToken cancel = new CancelToken();
        downloadCancel = cancel;
        noModel.set(false);
        loading.set(true);
        downloading.set(true);
        progress.set(0);
        modelStatus.set("Downloading " + entry.name() + "…");
        CompletableFuture.supplyAsync(() -> {
            try {
                return context.installer().install(entry, p -> ui.execute(() -> showDownload(entry, p)), cancel);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, background).whenComplete((path, error) -> ui.execute(() -> {
            loading.set(false);
            downloading.set(false);
            progress.set(-1);
            if (error != null) {
                noModel.set(true);
                Throwable cause = error.getCause() != null ? error.getCause() : error;
                if (cause instanceof java.io.UncheckedIOException u && u.getCause() != null) {
                    cause = u.getCause();
                }
                modelStatus.set(cause instanceof DownloadCancelledException
                        ? "Download cancelled (it resumes where it stopped next time)"
                        : "Could not download " + entry.name() + ": " + cause.getMessage()
                                + ". Use the demo model or choose a .gguf file.");
            } else {
                adopt(path);
            }
        }));
    }

    /** Stops a running download; the part already fetched is kept for a later resume. */
    public void cancelDownload() {
        CancelToken cancel = downloadCancel;
        if (cancel != null) {
            cancel.cancel();
        }
    }

    private void showDownload(CatalogEntry entry, DownloadProgress p) {
        progress.set(p.bytesTotal() > 0 ? p.fraction() : -1);
        modelStatus.set("Downloading " + entry.name() + ": " + Math.round(p.fraction() * 100) + "% · "
                + Bytes.human(p.bytesDone()) + " of " + Bytes.human(p.bytesTotal()) + " · "
                + Bytes.human((long) p.bytesPerSecond()) + "/s");
    }

    /** Makes the demo model (random weights, a few seconds, with progress) and loads it. */
    public void useDemoModel() {
        noModel.set(false);
        loading.set(true);
        progress.set(0);
        modelStatus.set("Making the demo model (random weights: it talks nonsense)…");
        CompletableFuture.supplyAsync(() -> {
            try {
                return DemoModel.ensure(context.home().modelStore(), p -> ui.execute(() -> progress.set(p)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, background).whenComplete((path, error) -> ui.execute(() -> {
            loading.set(false);
            progress.set(-1);
            if (error != null) {
                noModel.set(true);
                Throwable cause = error.getCause() != null ? error.getCause() : error;
                modelStatus.set("Could not make the demo model: " + cause.getMessage());
            } else {
                adopt(path);
            }
        }));
    }

    private void adopt(Path model) {
        try {
            apply(settings.get().withModelPath(model.toString()));
        } catch (IOException e) {
            modelStatus.set("Could not save the settings: " + e.getMessage());
        }
    }

    private String firstInstalledModel() {
        try {
            return context.home().modelStore().installedModels().stream()
                    .filter(m -> m.readable()).map(m -> m.file().toString()).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    /** Saves new settings; reloads the model when the model or engine settings changed. */
    public void apply(AppSettings next) throws IOException {
        AppSettings before = settings.get();
        context.saveSettings(next);
        settings.set(next);
        boolean engineChanged = !Objects.equals(before.modelPath(), next.modelPath())
                || before.backend() != next.backend() || before.threads() != next.threads()
                || before.contextSize() != next.contextSize() || before.weights() != next.weights()
                || before.kvCache() != next.kvCache() || !Objects.equals(before.remoteUrl(), next.remoteUrl())
                || !Objects.equals(before.remoteKey(), next.remoteKey())
                || !Objects.equals(before.remoteModel(), next.remoteModel());
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

    /** True when no model is chosen or installed (the window offers the demo model or a file). */
    public ReadOnlyBooleanProperty noModelProperty() {
        return noModel.getReadOnlyProperty();
    }

    /** True while the default model downloads (the window offers to cancel it). */
    public ReadOnlyBooleanProperty downloadingProperty() {
        return downloading.getReadOnlyProperty();
    }

    /** Progress of making a model in [0, 1], or -1 when unknown (loading shows a spinner then). */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<AppSettings> settingsProperty() {
        return settings.getReadOnlyProperty();
    }
}
