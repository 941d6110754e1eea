package dev.parley.models.download;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Turns byte counts into {@link DownloadProgress} reports: computes the rate over the bytes fetched in this call,
 * the time left, and throttles DOWNLOADING reports to one per {@code minBytesBetween} bytes (phase changes and the
 * final report always go out).
 */
final class ProgressMeter {
    private final ProgressListener listener;
    private final LongSupplier nanoClock;
    private final long minBytesBetween;
    private long total = -1;
    private long startNanos = -1;
    private long startBytes;
    private long lastReportedBytes = Long.MIN_VALUE;
    private DownloadProgress.Phase lastPhase;

    ProgressMeter(ProgressListener listener, LongSupplier nanoClock, long minBytesBetween) {
        this.listener = listener;
        this.nanoClock = nanoClock;
        this.minBytesBetween = minBytesBetween;
    }

    void total(long total) {
        this.total = total;
    }

    long total() {
        return total;
    }

    /** Marks where the bytes fetched over the network start counting (after a resumed prefix). */
    void startCounting(long bytesAlreadyThere) {
        startNanos = nanoClock.getAsLong();
        startBytes = bytesAlreadyThere;
    }

    void phase(DownloadProgress.Phase phase, long bytesDone) {
        emit(phase, bytesDone);
    }

    void bytes(long bytesDone) {
        if (bytesDone - lastReportedBytes >= minBytesBetween || (total > 0 && bytesDone == total)) {
            emit(DownloadProgress.Phase.DOWNLOADING, bytesDone);
        }
    }

    private void emit(DownloadProgress.Phase phase, long bytesDone) {
        double rate = 0;
        Duration eta = null;
        if (startNanos >= 0) {
            long elapsed = nanoClock.getAsLong() - startNanos;
            long fetched = bytesDone - startBytes;
            if (elapsed > 0 && fetched > 0) {
                rate = fetched * 1e9 / elapsed;
                if (total > 0) {
                    eta = Duration.ofMillis(Math.round(Math.max(0, total - bytesDone) / rate * 1000));
                }
            }
        }
        if (phase == DownloadProgress.Phase.DONE) {
            eta = Duration.ZERO;
        }
        lastReportedBytes = bytesDone;
        lastPhase = phase;
        listener.onProgress(new DownloadProgress(bytesDone, total, rate, eta, phase));
    }

    DownloadProgress.Phase lastPhase() {
        return lastPhase;
    }
}
