package dev.parley.app.gui.voice;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.download.Bytes;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.download.ProgressListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The voice bar's offer to download the voice models that are missing (a list of catalog entries: see
 * {@link VoiceModels}): what they are and their size, one download after the other with their overall progress,
 * cancel (the part fetched is kept for a resume), and a clear message when it fails. Downloads run on the
 * background executor; properties change on the UI executor only. When all are installed, {@code installed}
 * runs (on the UI thread): the voice loop is tried again.
 */
public final class VoiceDownloadViewModel {
    /** Installs one catalog entry (the model store's installer: resumable, verified). */
    @FunctionalInterface
    public interface Installer {
        Path install(CatalogEntry entry, ProgressListener progress, CancelToken cancel) throws Exception;
    }

    private final List<CatalogEntry> needed;
    private final Predicate<CatalogEntry> isInstalled;
    private final Installer installer;
    private final Executor ui;
    private final Executor background;
    private final Runnable installed;
    private final ReadOnlyBooleanWrapper offered = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper downloading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(-1);
    private final ReadOnlyStringWrapper offer = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private volatile CancelToken cancel;
    private List<CatalogEntry> missing = List.of();

    public VoiceDownloadViewModel(List<CatalogEntry> needed, Predicate<CatalogEntry> isInstalled, Installer installer,
                                  Executor ui, Executor background, Runnable installed) {
        this.needed = List.copyOf(needed);
        this.isInstalled = Objects.requireNonNull(isInstalled, "isInstalled");
        this.installer = Objects.requireNonNull(installer, "installer");
        this.ui = ui;
        this.background = background;
        this.installed = installed;
        refresh();
    }

    /** Looks again at what is installed (UI thread; a few file checks) and offers what is missing. */
    public void refresh() {
        if (downloading.get()) {
            return;
        }
        missing = needed.stream().filter(e -> !isInstalled.test(e)).toList();
        offered.set(!missing.isEmpty());
        offer.set(missing.isEmpty() ? "" : "Download " + describe(missing));
    }

    /** Downloads the missing entries one after the other (UI thread; the work runs in the background). */
    public void download() {
        if (downloading.get() || missing.isEmpty()) {
            return;
        }
        List<CatalogEntry> queue = missing;
        CancelToken token = new CancelToken();
        cancel = token;
        downloading.set(true);
        offered.set(false);
        progress.set(0);
        status.set("Downloading " + describe(queue) + "…");
        long total = queue.stream().mapToLong(e -> e.size().orElse(0)).sum();
        CompletableFuture.runAsync(() -> {
            long before = 0;
            for (CatalogEntry entry : queue) {
                long done = before;
                try {
                    installer.install(entry, p -> ui.execute(() -> show(entry, p, done, total)), token);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
                before += entry.size().orElse(0);
            }
        }, background).whenComplete((r, error) -> ui.execute(() -> {
            downloading.set(false);
            progress.set(-1);
            if (error == null) {
                status.set("Installed " + queue.stream().map(CatalogEntry::name).collect(Collectors.joining(", "))
                        + ": starting voice…");
                refresh();
                installed.run();
                return;
            }
            Throwable cause = error.getCause() != null ? error.getCause() : error;
            refresh();
            status.set(token.isCancelled() ? "Download cancelled (it resumes where it stopped next time)"
                    : "Could not download: " + cause.getMessage() + " (typed chat works)");
        }));
    }

    /** Stops the download; what was fetched is kept, so the next one resumes. */
    public void cancel() {
        CancelToken token = cancel;
        if (token != null) {
            token.cancel();
        }
    }

    private void show(CatalogEntry entry, DownloadProgress p, long before, long total) {
        long done = before + p.bytesDone();
        progress.set(total > 0 ? Math.min(1, (double) done / total) : p.fraction());
        status.set("Downloading " + entry.name() + ": " + Bytes.human(done) + " of " + Bytes.human(total) + " · "
                + Bytes.human((long) p.bytesPerSecond()) + "/s");
    }

    private static String describe(List<CatalogEntry> entries) {
        long total = entries.stream().mapToLong(e -> e.size().orElse(0)).sum();
        return entries.stream().map(CatalogEntry::name).collect(Collectors.joining(" and "))
                + (total > 0 ? " (" + Bytes.human(total) + ")" : "");
    }

    /** Something is missing and no download runs: the offer is shown. */
    public ReadOnlyBooleanProperty offeredProperty() {
        return offered.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty downloadingProperty() {
        return downloading.getReadOnlyProperty();
    }

    /** 0..1 over all the entries being downloaded, -1 when none is. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The download button's text: the names and total size of what is missing. */
    public ReadOnlyStringProperty offerProperty() {
        return offer.getReadOnlyProperty();
    }

    /** What the download is doing, or how it ended. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
