package dev.parley.app.gui.dashboard;

import dev.parley.app.service.MetricsSnapshot;
import dev.parley.app.service.TurnLatency;
import java.util.Locale;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The dashboard's state, fed one {@link MetricsSnapshot} at a time at a fixed rate by the view's
 * timer (never per engine event). The turn list only changes when a turn finished, so charts are
 * rebuilt once per turn; the memory and queue figures change on every sample.
 */
public final class DashboardViewModel {
    private final javafx.beans.property.ReadOnlyStringWrapper echo =
            new javafx.beans.property.ReadOnlyStringWrapper("voice loop not running");
    private long seenSequence = -1;

    // Properties
    private final ObservableList<TurnLatency> turns = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<MetricsSnapshot> latest = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper queue = new ReadOnlyStringWrapper("idle");
    private final ReadOnlyStringWrapper lastTurn = new ReadOnlyStringWrapper("No turns yet");
    private final ReadOnlyLongWrapper samples = new ReadOnlyLongWrapper();

    // Commands

    /** Takes one sample. */
    /** The echo canceller's line: "ERLE x dB, delay y ms", or why there is none. */
    public void updateEcho(java.util.Optional<dev.parley.audio.frontend.FrontEndStats> stats) {
        echo.set(stats.map(DashboardViewModel::echoText).orElse("voice loop not running"));
    }

    /** How the dashboard writes the echo canceller's figures, with what the front end costs where it was measured. */
    public static String echoText(dev.parley.audio.frontend.FrontEndStats s) {
        if (!s.echoCancelling()) {
            return "off (half-duplex)";
        }
        String text = String.format(Locale.ROOT, "ERLE %.1f dB, delay %d ms, echo return loss %.1f dB", s.erleDb(),
                s.delayMs(), s.echoReturnLossDb());
        return Double.isNaN(s.frameMicros()) ? text : text + String.format(Locale.ROOT,
                "; %.0f µs a 10 ms frame (P99 %.0f µs)", s.frameMicros(), s.frameP99Micros());
    }

    public ReadOnlyStringProperty echoProperty() {
        return echo.getReadOnlyProperty();
    }

    public void update(MetricsSnapshot s) {
        latest.set(s);
        samples.set(samples.get() + 1);
        if (s.sequence() != seenSequence) {
            seenSequence = s.sequence();
            turns.setAll(s.turns());
            lastTurn.set(s.lastTurn().map(t -> String.format(Locale.ROOT,
                    "Last turn (#%d)%n%.0f ms to first token%n%.1f tokens/s%n%d tokens", t.turn(), t.timeToFirstTokenMs(),
                    t.tokensPerSecond(), t.tokens())).orElse("No turns yet"));
        }
        queue.set(s.generating()
                ? String.format(Locale.ROOT, "%d running · %d queued · %d tokens so far", s.running(), s.queued(),
                        s.liveTokens())
                : s.queued() > 0 ? s.queued() + " queued" : "idle");
    }

    /** {@code bytes} as "12.3 MB" (binary units). */
    public static String bytes(long bytes) {
        if (bytes < 0) {
            return "n/a";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    // Property accessors

    public ObservableList<TurnLatency> turns() {
        return turns;
    }

    public ReadOnlyObjectProperty<MetricsSnapshot> latestProperty() {
        return latest.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty queueProperty() {
        return queue.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty lastTurnProperty() {
        return lastTurn.getReadOnlyProperty();
    }

    /** Samples taken so far. */
    public ReadOnlyLongProperty samplesProperty() {
        return samples.getReadOnlyProperty();
    }
}
