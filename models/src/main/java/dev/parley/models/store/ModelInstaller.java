package dev.parley.models.store;

import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.download.CancelToken;
import dev.parley.models.download.DownloadException;
import dev.parley.models.download.DownloadProgress;
import dev.parley.models.download.DownloadRequest;
import dev.parley.models.download.DownloadResult;
import dev.parley.models.download.Downloader;
import dev.parley.models.download.IoFailure;
import dev.parley.models.download.ProgressListener;
import dev.parley.models.download.ZipUnpacker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Installs catalog entries into a {@link ModelStore}: downloads (resuming a part file), verifies against the
 * published checksum or, when there is none, against the checksum recorded on the first download (trust on first
 * use), unpacks archives, and records the result in the store index.
 */
public final class ModelInstaller {
    private final ModelStore store;
    private final Downloader downloader;
    private final ZipUnpacker unpacker;

    public ModelInstaller(ModelStore store, Downloader downloader, ZipUnpacker unpacker) {
        this.store = store;
        this.downloader = downloader;
        this.unpacker = unpacker;
    }

    /** Installs {@code entry} and returns where it now lives; bundled entries need nothing. */
    public Path install(CatalogEntry entry, ProgressListener listener, CancelToken cancel) throws DownloadException {
        if (entry.isBundled()) {
            listener.onProgress(new DownloadProgress(0, 0, 0, java.time.Duration.ZERO, DownloadProgress.Phase.DONE));
            return store.pathFor(entry);
        }
        try {
            store.createLayout();
            String recorded = store.recordedChecksum(entry.id()).orElse(null);
            String expected = entry.sha256() != null ? entry.sha256() : recorded;
            boolean archive = entry.archive() != null;
            Path target = archive ? store.asrDir().resolve(entry.fileName()) : store.pathFor(entry);
            ProgressListener downloadListener = archive
                    ? p -> {
                        if (p.phase() != DownloadProgress.Phase.DONE) {
                            listener.onProgress(p);
                        }
                    }
                    : listener;
            DownloadResult result = downloader.download(
                    new DownloadRequest(entry.url(), target, entry.sizeBytes(), expected), downloadListener, cancel);
            Path installed = target;
            if (archive) {
                listener.onProgress(new DownloadProgress(result.bytes(), result.bytes(), 0, null,
                        DownloadProgress.Phase.UNPACKING));
                installed = unpacker.unpack(target, store.asrDir(), entry.archive().topFolder());
                Files.deleteIfExists(target);
                listener.onProgress(new DownloadProgress(result.bytes(), result.bytes(), 0, java.time.Duration.ZERO,
                        DownloadProgress.Phase.DONE));
            }
            String source = entry.sha256() != null ? "catalog" : recorded != null ? "recorded" : "first-download";
            store.record(new InstalledItem(entry.id(), entry.kind().jsonName(),
                    store.root().relativize(installed).toString(), result.bytes(), result.sha256(), source,
                    Instant.now().toString(), entry.url().toString()), entry.sha256() == null);
            return installed;
        } catch (DownloadException e) {
            throw e;
        } catch (IOException e) {
            throw new IoFailure("cannot install " + entry.id() + " into " + store.root() + ": " + e.getMessage(), e);
        }
    }
}
