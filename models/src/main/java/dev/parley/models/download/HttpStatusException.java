package dev.parley.models.download;

import java.net.URI;

/** The server answered with an error status (after the retries, for 5xx and 429). */
public final class HttpStatusException extends DownloadException {
    private final int status;
    private final URI url;

    public HttpStatusException(int status, URI url, int attempts) {
        super(describe(status) + " for " + url + (attempts > 1 ? " (after " + attempts + " attempts)" : ""));
        this.status = status;
        this.url = url;
    }

    private static String describe(int status) {
        return switch (status) {
            case 401, 403 -> "HTTP " + status + " (access denied: the file may need a login)";
            case 404 -> "HTTP 404 (not found: the file was moved or removed)";
            case 429 -> "HTTP 429 (too many requests: try again later)";
            default -> status >= 500 ? "HTTP " + status + " (server error)" : "HTTP " + status;
        };
    }

    public int status() {
        return status;
    }

    public URI url() {
        return url;
    }
}
