package dev.parley.models.download;

import java.io.IOException;

/** A download failed; subclasses say why, and every message is meant to be shown to the user as it is. */
public sealed class DownloadException extends IOException
        permits OfflineException, HttpStatusException, ChecksumMismatchException, SizeMismatchException,
        DiskFullException, DownloadCancelledException, UnsafeArchiveException, IoFailure {

    public DownloadException(String message) {
        super(message);
    }

    public DownloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
