package dev.parley.models.download;

/** Receives {@link DownloadProgress} reports on the downloading thread; must return quickly. */
@FunctionalInterface
public interface ProgressListener {
    /** Ignores every report. */
    ProgressListener NONE = p -> { };

    void onProgress(DownloadProgress progress);
}
