package dev.parley.models.download;

/** The host could not be reached at all (no DNS, connection refused, timed out): most likely no network. */
public final class OfflineException extends DownloadException {
    private final String host;

    public OfflineException(String host, Throwable cause) {
        super("cannot reach " + host + ": are you offline? You can still open a local GGUF file with --model", cause);
        this.host = host;
    }

    public String host() {
        return host;
    }
}
