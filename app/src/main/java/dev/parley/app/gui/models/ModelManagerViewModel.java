package dev.parley.app.gui.models;

import dev.parley.app.store.AppSettings;
import dev.parley.engine.model.KvFormat;
import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.catalog.EntryKind;
import dev.parley.models.catalog.ModelCatalog;
import dev.parley.models.download.Bytes;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadCancelledException;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.store.InstalledModel;
import dev.parley.models.store.ModelInfo;
import dev.parley.models.store.ModelInstaller;
import dev.parley.models.store.ModelStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The model manager's state and actions: the catalog's language models and the GGUF files on this computer, with
 * download (progress, pause, resume, cancel), delete, "use this model" and opening any GGUF file. Every action does
 * its file and network work on {@code background} and changes the rows on {@code ui} (the FX thread in the app);
 * each returns a future that completes once the rows show the outcome. Every failure is said in {@link #message()}
 * (and on the row concerned), never thrown at the caller.
 */
public final class ModelManagerViewModel {
    private final ModelCatalog catalog;
    private final ModelStore store;
    private final ModelInstaller installer;
    private final Supplier<AppSettings> settings;
    private final ModelChoice choice;
    private final Executor ui;
    private final Executor background;

    private final ObservableList<ModelItem> items = FXCollections.observableArrayList();
    private final Map<String, ModelItem> catalogItems = new LinkedHashMap<>();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper error = new ReadOnlyBooleanWrapper();
    private final IntegerProperty contextSize = new SimpleIntegerProperty();
    private final ObjectProperty<KvFormat> kv = new SimpleObjectProperty<>();
    /** Counts the actions' reports (on the UI thread): a scan that started before the last one is stale. */
    private volatile int generation;

    public ModelManagerViewModel(ModelCatalog catalog, ModelStore store, ModelInstaller installer,
                                 Supplier<AppSettings> settings, ModelChoice choice, Executor ui,
                                 Executor background) {
        this.catalog = catalog;
        this.store = store;
        this.installer = installer;
        this.settings = settings;
        this.choice = choice;
        this.ui = ui;
        this.background = background;
        AppSettings s = settings.get();
        contextSize.set(s.contextSize());
        kv.set(s.kvCache());
        for (CatalogEntry e : catalog.entries(EntryKind.LLM)) {
            if (!e.isBundled()) {
                ModelItem item = ModelItem.of(e, store.pathFor(e));
                catalogItems.put(e.id(), item);
                items.add(item);
            }
        }
        contextSize.addListener((o, a, b) -> updateMemory());
        kv.addListener((o, a, b) -> updateMemory());
        updateMemory();
    }

    /** The rows: the catalog's language models in catalog order, then other GGUF files. */
    public ObservableList<ModelItem> items() {
        return items;
    }

    /** The row with this key (catalog id or {@code file:PATH}). */
    public java.util.Optional<ModelItem> item(String key) {
        return items.stream().filter(i -> i.key().equals(key)).findFirst();
    }

    /** The last thing that happened, for the banner; "" when nothing needs saying. */
    public ReadOnlyStringProperty message() {
        return message.getReadOnlyProperty();
    }

    /** Whether {@link #message()} reports a failure. */
    public ReadOnlyBooleanProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The context the memory column is computed for (and "use" applies). */
    public IntegerProperty contextSizeProperty() {
        return contextSize;
    }

    /** The KV cache precision the memory column is computed for (and "use" applies). */
    public ObjectProperty<KvFormat> kvProperty() {
        return kv;
    }

    /** Reads what is on disk: installed and partly downloaded catalog models, other GGUF files, the one in use. */
    public CompletableFuture<Void> refresh() {
        int at = generation;
        java.util.concurrent.atomic.AtomicBoolean stale = new java.util.concurrent.atomic.AtomicBoolean();
        return task(this::scan, scan -> {
            if (at != generation) {
                stale.set(true); // an action finished while the scan ran: what it read may be old, read again
            } else {
                applyScan(scan);
            }
        }, e -> say(true, "Could not list the models in " + store.root() + ": " + e.getMessage()))
                .thenCompose(v -> stale.get() ? refresh() : done());
    }

    private record Scan(Map<String, Long> installed, Map<String, Long> partial, List<ModelItem> files,
                        List<String> unreadable) {
    }

    private Scan scan() throws IOException {
        Map<String, Long> installed = new LinkedHashMap<>();
        Map<String, Long> partial = new LinkedHashMap<>();
        for (ModelItem item : catalogItems.values()) {
            Path f = item.file();
            Path part = f.resolveSibling(f.getFileName() + ".part");
            if (Files.isRegularFile(f)) {
                installed.put(item.key(), Files.size(f));
            } else if (Files.isRegularFile(part)) {
                partial.put(item.key(), Files.size(part));
            }
        }
        Set<Path> catalogFiles = catalogItems.values().stream().map(ModelItem::file).collect(Collectors.toSet());
        List<ModelItem> files = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (InstalledModel m : store.installedModels()) {
            Path f = m.file().toAbsolutePath().normalize();
            if (catalogFiles.contains(f)) {
                continue;
            }
            if (m.readable()) {
                files.add(ModelItem.ofFile(f, m.info()));
            } else {
                unreadable.add(f.getFileName() + " (" + m.error() + ")");
            }
        }
        String current = settings.get().modelPath();
        if (!current.isBlank()) {
            Path f = Path.of(current).toAbsolutePath().normalize();
            boolean listed = catalogFiles.contains(f) || files.stream().anyMatch(i -> i.file().equals(f));
            if (!listed && Files.isRegularFile(f)) {
                try {
                    files.add(ModelItem.ofFile(f, ModelInfo.read(f)));
                } catch (IOException | RuntimeException e) {
                    unreadable.add(f.getFileName() + " (" + e.getMessage() + ")");
                }
            }
        }
        return new Scan(installed, partial, files, unreadable);
    }

    private void applyScan(Scan scan) {
        for (ModelItem item : catalogItems.values()) {
            if (item.state() == ModelState.DOWNLOADING) {
                continue;
            }
            Long have = scan.installed().get(item.key());
            Long part = scan.partial().get(item.key());
            if (have != null) {
                item.state(ModelState.INSTALLED);
                item.size(have);
                item.progress(-1);
                item.detail("");
            } else if (part != null) {
                item.state(ModelState.PAUSED);
                showPaused(item, part);
            } else {
                item.state(ModelState.AVAILABLE);
                item.progress(-1);
                item.detail("");
            }
        }
        // Files opened in this session stay listed while they exist; the scan adds those in the store.
        List<ModelItem> files = new ArrayList<>(scan.files());
        for (ModelItem old : items) {
            if (old.entry().isEmpty() && files.stream().noneMatch(i -> i.key().equals(old.key()))
                    && Files.isRegularFile(old.file())) {
                files.add(old);
            }
        }
        List<ModelItem> rows = new ArrayList<>(catalogItems.values());
        rows.addAll(files);
        items.setAll(rows);
        updateMemory();
        markInUse();
        if (!scan.unreadable().isEmpty()) {
            say(true, "Some files in " + store.modelsDir() + " are not GGUF models Parley can read: "
                    + String.join("; ", scan.unreadable()));
        }
    }

    /** Downloads a catalog model, or resumes a paused download from the bytes already on disk. */
    public CompletableFuture<Void> download(ModelItem item) {
        CatalogEntry entry = item.entry().orElse(null);
        if (entry == null || item.state() == ModelState.DOWNLOADING || item.state() == ModelState.INSTALLED) {
            return done();
        }
        boolean resume = item.state() == ModelState.PAUSED;
        CancelToken cancel = new CancelToken();
        item.cancel(cancel);
        item.discardOnStop(false);
        item.state(ModelState.DOWNLOADING);
        item.detail(resume ? "Resuming…" : "Connecting to " + entry.host() + "…");
        say(false, (resume ? "Resuming " : "Downloading ") + entry.name());
        return task(() -> {
            try {
                Path path = installer.install(entry, p -> ui.execute(() -> showProgress(item, p)), cancel);
                return new Fetch(null, sizeOf(path));
            } catch (dev.parley.models.download.DownloadException e) {
                return new Fetch(e, sizeOf(item.file().resolveSibling(item.file().getFileName() + ".part")));
            }
        }, fetch -> {
            item.cancel(null);
            if (fetch.failure() == null) {
                item.state(ModelState.INSTALLED);
                item.progress(-1);
                item.detail("");
                item.size(fetch.bytes());
                updateMemory();
                say(false, entry.name() + " is installed: press Use to talk to it");
            } else {
                stopped(item, entry, fetch.failure(), fetch.bytes());
            }
        }, e -> stopped(item, entry, e, 0));
    }

    /** How a download ended: {@code failure} null and the file's size, or why it stopped and the part's size. */
    private record Fetch(Exception failure, long bytes) {
    }

    private void stopped(ModelItem item, CatalogEntry entry, Throwable e, long have) {
        item.cancel(null);
        Path part = item.file().resolveSibling(item.file().getFileName() + ".part");
        if (e instanceof DownloadCancelledException) {
            if (item.discardOnStop()) {
                deletePart(item, part, entry);
                return;
            }
            item.state(ModelState.PAUSED);
            showPaused(item, have);
            say(false, entry.name() + " paused at " + Bytes.human(have) + ": Resume continues from there");
            return;
        }
        item.state(have > 0 ? ModelState.PAUSED : ModelState.AVAILABLE);
        if (have > 0) {
            showPaused(item, have);
        } else {
            item.progress(-1);
        }
        item.detail("Could not download: " + e.getMessage());
        say(true, "Could not download " + entry.name() + ": " + e.getMessage());
    }

    private void deletePart(ModelItem item, Path part, CatalogEntry entry) {
        task(() -> Files.deleteIfExists(part), gone -> {
            item.state(ModelState.AVAILABLE);
            item.progress(-1);
            item.detail("");
            say(false, "Download of " + entry.name() + " cancelled");
        }, e -> say(true, "Could not remove the partial download " + part + ": " + e.getMessage()));
    }

    /** Stops a running download and keeps what it fetched; {@link #download} resumes it. */
    public void pause(ModelItem item) {
        CancelToken cancel = item.cancel();
        if (cancel != null) {
            item.discardOnStop(false);
            item.detail("Pausing…");
            cancel.cancel();
        }
    }

    /**
     * Stops a running download and deletes what it fetched, or deletes a paused one's partial file. For a running
     * download the future of its {@link #download} call completes once the row is back to available.
     */
    public CompletableFuture<Void> cancel(ModelItem item) {
        CancelToken token = item.cancel();
        if (token != null) {
            item.discardOnStop(true);
            item.detail("Cancelling…");
            token.cancel();
            return done();
        }
        if (item.state() == ModelState.PAUSED && item.entry().isPresent()) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            Path part = item.file().resolveSibling(item.file().getFileName() + ".part");
            background.execute(() -> {
                try {
                    Files.deleteIfExists(part);
                    ui.execute(() -> {
                        item.state(ModelState.AVAILABLE);
                        item.progress(-1);
                        item.detail("");
                        say(false, "Download of " + item.name() + " cancelled");
                        f.complete(null);
                    });
                } catch (IOException e) {
                    ui.execute(() -> {
                        say(true, "Could not remove the partial download " + part + ": " + e.getMessage());
                        f.complete(null);
                    });
                }
            });
            return f;
        }
        return done();
    }

    /** Deletes an installed model from the model store (not the one in use, not a file outside the store). */
    public CompletableFuture<Void> delete(ModelItem item) {
        if (item.inUseProperty().get()) {
            say(true, item.name() + " is the model in use: use another one before deleting it");
            return done();
        }
        CatalogEntry entry = item.entry().orElse(null);
        if (entry == null && !item.file().startsWith(store.modelsDir())) {
            say(true, item.file() + " is outside Parley's model store (" + store.modelsDir()
                    + "), so Parley leaves it where it is");
            return done();
        }
        return task(() -> entry != null ? store.remove(entry) : Files.deleteIfExists(item.file()), removed -> {
            if (entry != null) {
                item.state(ModelState.AVAILABLE);
                item.size(entry.sizeBytes() == null ? -1 : entry.sizeBytes());
                item.progress(-1);
                item.detail("");
            } else {
                items.remove(item);
            }
            say(false, item.name() + " deleted");
        }, e -> say(true, "Could not delete " + item.name() + ": " + e.getMessage()));
    }

    /** Makes an installed model (or an opened file) the one the window loads. */
    public CompletableFuture<Void> use(ModelItem item) {
        if (item.unsupported() != null) {
            say(true, item.name() + " cannot be used: " + item.unsupported());
            return done();
        }
        if (item.state() != ModelState.INSTALLED) {
            say(true, item.name() + " is not downloaded yet: download it first");
            return done();
        }
        return task(() -> GgufCheck.check(item.file()), info -> apply(item), e -> {
            item.detail(e.getMessage());
            say(true, e.getMessage());
        });
    }

    /** Opens any GGUF file (chosen or dropped): checks it with the GGUF reader, lists it and uses it. */
    public CompletableFuture<Void> open(Path file) {
        Path f = file.toAbsolutePath().normalize();
        say(false, "Checking " + f.getFileName() + "…");
        return task(() -> GgufCheck.check(f), info -> {
            ModelItem item = items.stream().filter(i -> i.file().equals(f)).findFirst().orElseGet(() -> {
                ModelItem added = ModelItem.ofFile(f, info);
                items.add(added);
                return added;
            });
            item.state(ModelState.INSTALLED);
            item.size(info.fileSize());
            updateMemory();
            apply(item);
        }, e -> say(true, "Could not open " + f.getFileName() + ": " + e.getMessage()));
    }

    private void apply(ModelItem item) {
        int ctx = Math.max(16, contextSize.get());
        try {
            choice.use(item.file(), ctx, kv.get());
        } catch (IOException | RuntimeException e) {
            say(true, "Could not use " + item.name() + ": " + e.getMessage());
            return;
        }
        markInUse();
        say(false, "Using " + item.name() + " (" + ctx + " tokens of context, KV "
                + kv.get().name().toLowerCase(Locale.ROOT) + "): it loads in the background");
    }

    /** Marks the row of the settings' model; call after the settings change. */
    public void markInUse() {
        String current = settings.get().modelPath();
        Path f = current.isBlank() ? null : Path.of(current).toAbsolutePath().normalize();
        for (ModelItem i : items) {
            i.inUse(f != null && i.file().equals(f));
        }
    }

    private void updateMemory() {
        KvFormat format = kv.get();
        for (ModelItem i : items) {
            if (i.shape() == null) {
                i.memory("unknown");
                continue;
            }
            int ctx = i.contextLength() > 0 ? Math.min(contextSize.get(), i.contextLength()) : contextSize.get();
            if (i.sizeBytes() < 0) {
                i.memory("file + " + Bytes.human(i.shape().bytes(0, ctx, format)) + " KV at " + ctx + " tokens");
                continue;
            }
            i.memory(Bytes.human(i.shape().bytes(i.sizeBytes(), ctx, format)) + " at " + ctx + " tokens, KV "
                    + format.name().toLowerCase(Locale.ROOT));
        }
    }

    private void showProgress(ModelItem item, DownloadProgress p) {
        if (item.state() != ModelState.DOWNLOADING) {
            return;
        }
        item.progress(p.fraction());
        String figures = Bytes.human(p.bytesDone()) + " of " + Bytes.human(p.bytesTotal());
        item.detail(switch (p.phase()) {
            case CONNECTING -> "Connecting…";
            case DOWNLOADING -> (p.fraction() >= 0 ? Math.round(p.fraction() * 100) + "% · " : "") + figures
                    + " · " + Bytes.human((long) p.bytesPerSecond()) + "/s";
            case VERIFYING -> "Verifying " + figures + "…";
            case UNPACKING -> "Unpacking…";
            case DONE -> "Done";
        });
    }

    private void showPaused(ModelItem item, long have) {
        long total = item.entry().map(CatalogEntry::sizeBytes).orElse(null) == null ? -1
                : item.entry().get().sizeBytes();
        item.progress(total > 0 ? Math.min(1.0, (double) have / total) : -1);
        item.detail("Paused at " + Bytes.human(have) + (total > 0 ? " of " + Bytes.human(total) : ""));
    }

    private static long sizeOf(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Every action says how it started and how it ended, so this also marks the rows as changed. */
    private void say(boolean failure, String text) {
        generation++;
        error.set(failure);
        message.set(text);
    }

    private static CompletableFuture<Void> done() {
        return CompletableFuture.completedFuture(null);
    }

    /** Runs {@code work} in the background, then one of the handlers on the UI executor; completes after it. */
    private <T> CompletableFuture<Void> task(Callable<T> work, Consumer<T> onOk, Consumer<Throwable> onFail) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, background).whenComplete((value, failure) -> ui.execute(() -> {
            try {
                if (failure == null) {
                    onOk.accept(value);
                } else {
                    onFail.accept(unwrap(failure));
                }
            } catch (RuntimeException e) {
                say(true, "Unexpected failure: " + e);
            } finally {
                finished.complete(null);
            }
        }));
        return finished;
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof UncheckedIOException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
