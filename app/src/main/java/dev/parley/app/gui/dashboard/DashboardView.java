package dev.parley.app.gui.dashboard;

import atlantafx.base.theme.Styles;
import dev.parley.app.service.MetricsSnapshot;
import dev.parley.app.service.TurnLatency;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * Live figures: per-turn latency by stage (stacked bars), time to first token and tokens/s per turn,
 * the engine queue, and memory (weights, KV cache used/budget, JVM heap, resident memory, GPU).
 * A {@link Timeline} samples the snapshot at a fixed rate.
 */
public final class DashboardView extends ScrollPane {
    /** Sampling period of the figures. */
    public static final Duration PERIOD = Duration.millis(250);

    private static final List<Stage> STAGES = List.of(
            new Stage("Transcript", TurnLatency::transcriptMs),
            new Stage("Queued", TurnLatency::queuedMs),
            new Stage("Saved", TurnLatency::savedMs),
            new Stage("Prompt → first token", TurnLatency::promptMs),
            new Stage("Generation", TurnLatency::generationMs),
            new Stage("First audio", TurnLatency::firstAudioMs));

    private record Stage(String name, ToDoubleFunction<TurnLatency> ms) {
    }

    private final Timeline timeline;

    public DashboardView(DashboardViewModel vm, Supplier<MetricsSnapshot> snapshots) {
        this(vm, snapshots, java.util.Optional::empty);
    }

    /** @param echo the voice loop's echo canceller figures (non-blocking), shown beside the engine's */
    public DashboardView(DashboardViewModel vm, Supplier<MetricsSnapshot> snapshots,
                         Supplier<java.util.Optional<dev.parley.audio.frontend.FrontEndStats>> echo) {
        setId("dashboard-view");
        getStylesheets().add(DashboardView.class.getResource("/dev/parley/app/gui/dashboard/dashboard.css")
                .toExternalForm());
        setFitToWidth(true);

        CategoryAxis turnAxis = new CategoryAxis();
        turnAxis.setLabel("Turn");
        NumberAxis msAxis = new NumberAxis();
        msAxis.setLabel("Milliseconds");
        StackedBarChart<String, Number> latency = new StackedBarChart<>(turnAxis, msAxis);
        latency.setId("latency-chart");
        latency.setTitle("Latency per turn by stage (ms)");
        latency.setAnimated(false);
        latency.setLegendVisible(true);
        latency.setCategoryGap(18);

        Tooltip.install(latency, new Tooltip("Where each turn's time went, in milliseconds: speech end to transcript "
                + "(spoken turns), waiting for the engine, saving your message, reading the prompt up to the first "
                + "token, generating the rest, and first token to first audio (spoken turns)"));
        LineChart<Number, Number> ttft = lineChart("ttft-chart", "Time to first token (ms)", "Milliseconds");
        Tooltip.install(ttft, new Tooltip("From sending a message to the first token of the reply, per turn"));
        LineChart<Number, Number> speed = lineChart("speed-chart", "Generation speed (tokens/s)", "Tokens per second");
        Tooltip.install(speed, new Tooltip("Tokens generated per second after the first one, per turn"));

        MemoryGauge weights = new MemoryGauge("gauge-weights", "Weights",
                "Model tensor data read for each token (memory-mapped from the GGUF file)");
        MemoryGauge kv = new MemoryGauge("gauge-kv", "KV cache (used / budget)",
                "Keys and values of the tokens in the context, of the cache allocated for the context size");
        MemoryGauge heap = new MemoryGauge("gauge-heap", "JVM heap (used / max)",
                "Java heap in use, of the most the JVM may take (-Xmx)");
        MemoryGauge rss = new MemoryGauge("gauge-rss", "Process resident memory",
                "Physical memory of the whole process (VmRSS in /proc/self/status), including mapped weights");
        MemoryGauge gpu = new MemoryGauge("gauge-gpu", "GPU memory", "Device memory in use by a GPU backend; "
                + "'no GPU backend' while the model runs on the CPU (Settings > Backend) or on a server, or none is loaded");

        Label queue = new Label();
        queue.setId("queue-label");
        queue.textProperty().bind(vm.queueProperty());
        Tooltip.install(queue, new Tooltip("Turns running on the engine thread and waiting for it"));
        Label last = new Label();
        last.setId("last-turn-label");
        last.setWrapText(true);
        queue.setWrapText(true);
        last.textProperty().bind(vm.lastTurnProperty());

        vm.turns().addListener((ListChangeListener<TurnLatency>) c -> {
            latency.setData(javafx.collections.FXCollections.observableArrayList(latencySeries(vm.turns())));
            ttft.getData().setAll(List.of(series("TTFT", vm.turns(), TurnLatency::timeToFirstTokenMs)));
            speed.getData().setAll(List.of(series("tok/s", vm.turns(), TurnLatency::tokensPerSecond)));
            installBarTooltips(latency);
            installPointTooltips(ttft, "ms");
            installPointTooltips(speed, "tokens/s");
        });
        vm.latestProperty().addListener((o, a, s) -> {
            weights.set(DashboardViewModel.bytes(s.weightsBytes()), -1);
            kv.set(DashboardViewModel.bytes(s.kvUsedBytes()) + " / " + DashboardViewModel.bytes(s.kvBudgetBytes()),
                    s.kvBudgetBytes() > 0 ? (double) s.kvUsedBytes() / s.kvBudgetBytes() : 0);
            heap.set(DashboardViewModel.bytes(s.heapUsedBytes()) + " / " + DashboardViewModel.bytes(s.heapMaxBytes()),
                    (double) s.heapUsedBytes() / s.heapMaxBytes());
            rss.set(DashboardViewModel.bytes(s.rssBytes()), -1);
            gpu.set(s.gpuBytes() >= 0 ? DashboardViewModel.bytes(s.gpuBytes())
                    : s.modelLoaded() ? "no GPU backend: the model runs on the CPU or a server"
                    : "no GPU backend: no model loaded", -1);
        });

        VBox memory = card("Memory", weights, kv, heap, rss, gpu);
        Label echoLabel = new Label();
        echoLabel.setId("echo-label");
        echoLabel.setWrapText(true);
        echoLabel.textProperty().bind(vm.echoProperty().map(t -> "Echo canceller: " + t));
        Tooltip.install(echoLabel, new Tooltip("The voice loop's echo canceller (Parley's linear canceller, or WebRTC AEC3 if chosen): how much of Parley's own "
                + "voice it removes from the microphone (ERLE), the speaker-to-microphone delay it found, and the time the front end "
                + "(canceller, noise suppression, filter) takes for each 10 ms of microphone audio"));
        VBox engine = card("Engine", last, queue, echoLabel);
        GridPane grid = new GridPane();
        grid.setHgap(16);
        grid.setVgap(16);
        grid.setPadding(new Insets(18, 24, 18, 24));
        grid.add(card("Latency", latency), 0, 0, 2, 1);
        grid.add(card("Time to first token", ttft), 0, 1);
        grid.add(card("Speed", speed), 1, 1);
        grid.add(engine, 2, 0);
        grid.add(memory, 2, 1);
        for (int i = 0; i < 3; i++) {
            var cc = new javafx.scene.layout.ColumnConstraints();
            cc.setPercentWidth(i == 2 ? 30 : 35);
            cc.setHgrow(Priority.ALWAYS);
            grid.getColumnConstraints().add(cc);
        }
        setContent(grid);

        timeline = new Timeline(new KeyFrame(PERIOD, e -> {
            vm.update(snapshots.get());
            vm.updateEcho(echo.get());
        }));
        timeline.setCycleCount(Animation.INDEFINITE);
        vm.update(snapshots.get());
        timeline.play();
    }

    /** Stops sampling (when the window closes). */
    public void stop() {
        timeline.stop();
    }

    private static List<XYChart.Series<String, Number>> latencySeries(List<TurnLatency> turns) {
        return STAGES.stream().map(stage -> {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            s.setName(stage.name());
            for (TurnLatency t : turns) {
                s.getData().add(new XYChart.Data<>(label(t), stage.ms().applyAsDouble(t)));
            }
            return s;
        }).toList();
    }

    private static void installBarTooltips(StackedBarChart<String, Number> chart) {
        for (XYChart.Series<String, Number> s : chart.getData()) {
            for (XYChart.Data<String, Number> d : s.getData()) {
                Node bar = d.getNode();
                if (bar != null) {
                    Tooltip.install(bar, new Tooltip(String.format(java.util.Locale.ROOT, "%s, %s: %.1f ms",
                            d.getXValue(), s.getName(), d.getYValue().doubleValue())));
                }
            }
        }
    }

    private static void installPointTooltips(LineChart<Number, Number> chart, String unit) {
        for (XYChart.Series<Number, Number> s : chart.getData()) {
            for (XYChart.Data<Number, Number> d : s.getData()) {
                if (d.getNode() != null) {
                    Tooltip.install(d.getNode(), new Tooltip(String.format(java.util.Locale.ROOT, "Turn %d: %.1f %s",
                            d.getXValue().longValue(), d.getYValue().doubleValue(), unit)));
                }
            }
        }
    }

    private static String label(TurnLatency t) {
        return "#" + t.turn() + (t.spoken() ? " (voice)" : "");
    }

    private static XYChart.Series<Number, Number> series(String name, List<TurnLatency> turns,
                                                         ToDoubleFunction<TurnLatency> value) {
        XYChart.Series<Number, Number> s = new XYChart.Series<>();
        s.setName(name);
        for (TurnLatency t : turns) {
            s.getData().add(new XYChart.Data<>(t.turn(), value.applyAsDouble(t)));
        }
        return s;
    }

    private static LineChart<Number, Number> lineChart(String id, String title, String unit) {
        NumberAxis x = new NumberAxis();
        x.setLabel("Turn");
        x.setForceZeroInRange(false);
        x.setMinorTickVisible(false);
        NumberAxis y = new NumberAxis();
        y.setLabel(unit);
        LineChart<Number, Number> chart = new LineChart<>(x, y);
        chart.setId(id);
        chart.setTitle(title);
        chart.setAnimated(false);
        chart.setLegendVisible(false);
        chart.setPrefHeight(260);
        return chart;
    }

    private static VBox card(String title, Node... content) {
        Label heading = new Label(title);
        heading.getStyleClass().addAll(Styles.TITLE_4, "card-title");
        VBox box = new VBox(10, heading);
        box.getChildren().addAll(content);
        box.getStyleClass().add("dashboard-card");
        return box;
    }
}
