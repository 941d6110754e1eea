package dev.parley.models.download;

/** An archive entry would land outside the target folder (a {@code ..}, an absolute path, an escaping link). */
public final class UnsafeArchiveException extends DownloadException {
    public UnsafeArchiveException(String message) {
        super(message);
    }
}
