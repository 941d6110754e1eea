package dev.parley.models.download;

/** The server's file is not the size the catalog expects (or the transfer ended short); nothing was installed. */
public final class SizeMismatchException extends DownloadException {
    public SizeMismatchException(String what, long expected, long actual) {
        super("size mismatch for " + what + ": expected " + expected + " bytes but found " + actual);
    }
}
