package dev.parley.models.download;

import java.time.Duration;

/**
 * A progress report of one download: bytes on disk so far (including a resumed prefix), the total ({@code -1} when
 * the server does not say and the catalog does not know), the current transfer rate, the estimated time left
 * ({@code null} when unknown) and the phase. Reports arrive in order and phases only move forward; the last one is
 * {@link Phase#DONE} at 100%. {@code bytesDone} never decreases, except once, back to 0, when a server ignores a
 * resume request and the file must be fetched from its start.
 */
public record DownloadProgress(long bytesDone, long bytesTotal, double bytesPerSecond, Duration eta, Phase phase) {

    /** Where a download is. Phases only move forward. */
    public enum Phase {
        /** Opening the connection (also after a retry). */
        CONNECTING,
        /** Receiving bytes. */
        DOWNLOADING,
        /** Checking size and SHA-256. */
        VERIFYING,
        /** Unpacking an archive. */
        UNPACKING,
        /** Installed: the final file (or folder) is in place. */
        DONE
    }

    /** Fraction done in [0, 1], or -1 when the total is unknown. */
    public double fraction() {
        if (bytesTotal <= 0) {
            return bytesTotal == 0 && phase == Phase.DONE ? 1.0 : -1;
        }
        return Math.min(1.0, (double) bytesDone / bytesTotal);
    }
}
