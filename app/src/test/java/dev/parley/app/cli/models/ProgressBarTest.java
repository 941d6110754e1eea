package dev.parley.app.cli.models;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.models.download.DownloadProgress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void rendersPercentMegabytesRateAndEta() {
        DownloadProgress p = new DownloadProgress(50L << 20, 200L << 20, 2 * 1024 * 1024, Duration.ofSeconds(75),
                DownloadProgress.Phase.DOWNLOADING);
        assertEquals("m [#######.......................]  25%  50.0/200.0 MB  2.0 MB/s  ETA 1:15",
                ProgressBar.render("m", p));
    }

    @Test
    void unknownTotalShowsQuestionMarks() {
        DownloadProgress p = new DownloadProgress(1L << 20, -1, 0, null, DownloadProgress.Phase.DOWNLOADING);
        assertEquals("m [..............................]   ?%  1.0/? MB", ProgressBar.render("m", p));
    }
}
