package dev.parley.models.download;

import java.nio.file.Path;

/** The download was cancelled; its partial file stays so that the next attempt resumes. */
public final class DownloadCancelledException extends DownloadException {
    public DownloadCancelledException(Path partFile, long bytesKept) {
        super("download cancelled; " + bytesKept + " bytes kept in " + partFile + " for a later resume");
    }
}
