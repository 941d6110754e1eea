package dev.parley.models.download;

/**
 * A handle to stop a download from another thread or from a progress listener. A cancelled download throws
 * {@link DownloadCancelledException} and leaves its {@code .part} file, so a later download of the same file resumes.
 */
public final class CancelToken {
    private volatile boolean cancelled;

    /** Asks the download to stop at the next chunk. */
    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
