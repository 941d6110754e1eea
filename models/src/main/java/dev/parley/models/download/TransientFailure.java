package dev.parley.models.download;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/** A failed attempt that may succeed when retried: an I/O error, an unreachable host, a 5xx or a 429. */
final class TransientFailure extends Exception {
    enum Kind { IO, UNREACHABLE, STATUS }

    private final Kind kind;
    private final int status;
    private final Duration retryAfter;

    private TransientFailure(Kind kind, int status, Duration retryAfter, Throwable cause) {
        super(cause == null ? "HTTP " + status : cause.getMessage(), cause, false, false);
        this.kind = kind;
        this.status = status;
        this.retryAfter = retryAfter;
    }

    static TransientFailure io(IOException cause) {
        return new TransientFailure(Kind.IO, 0, null, cause);
    }

    static TransientFailure unreachable(IOException cause) {
        return new TransientFailure(Kind.UNREACHABLE, 0, null, cause);
    }

    static TransientFailure status(int status, Duration retryAfter) {
        return new TransientFailure(Kind.STATUS, status, retryAfter, null);
    }

    boolean unreachable() {
        return kind == Kind.UNREACHABLE;
    }

    Duration retryAfter() {
        return retryAfter;
    }

    /** The error to report when no attempts are left. */
    DownloadException finalError(URI url, String what, int attempts) {
        return switch (kind) {
            case UNREACHABLE -> new OfflineException(url.getHost(), getCause());
            case STATUS -> new HttpStatusException(status, url, attempts);
            case IO -> new IoFailure("download of " + what + " from " + url.getHost() + " failed after " + attempts
                    + " attempts: " + getMessage() + "; run the same command again to resume", getCause());
        };
    }
}
