package dev.parley.models.download;

/** The transfer kept failing with I/O errors (connection reset, closed early) after every retry. */
public final class IoFailure extends DownloadException {
    public IoFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
