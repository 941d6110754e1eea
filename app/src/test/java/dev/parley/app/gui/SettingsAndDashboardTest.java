package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.AppSettings;
import dev.parley.app.store.Theme;
import dev.parley.engine.model.KvFormat;
import dev.parley.engine.model.WeightFormat;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** The settings dialog persists across a restart; the dashboard draws a turn's latency bars. */
class SettingsAndDashboardTest {
    @TempDir
    static Path models;
    static Path tiny;

    @TempDir
    Path home;

    private GuiHarness app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void makeModel() throws Exception {
        tiny = TestModels.tiny(models);
    }

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void settingsChangedInTheDialogSurviveARestart() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 16));
        app.start();
        long kvF32 = app.context.chat().model().orElseThrow().kvBudgetBytes();
        robot.clickOn("#settings-button");
        GuiHarness.waitFor(() -> dialog() != null);
        TextField temperature = (TextField) dialog().lookup("#setting-temperature");
        TextField maxTokens = (TextField) dialog().lookup("#setting-max-tokens");
        robot.doubleClickOn(temperature).eraseText(8).write("0.35");
        robot.doubleClickOn(maxTokens).eraseText(8).write("99");
        GuiHarness.onFx(() -> {
            ((javafx.scene.control.ComboBox<Theme>) dialog().lookup("#setting-theme")).setValue(Theme.DARK);
            ((javafx.scene.control.ComboBox<KvFormat>) dialog().lookup("#setting-kv")).setValue(KvFormat.INT8);
            ((javafx.scene.control.ComboBox<WeightFormat>) dialog().lookup("#setting-weights"))
                    .setValue(WeightFormat.INT8);
            ((javafx.scene.control.ComboBox<String>) dialog().lookup("#setting-noise")).setValue("low");
            ((javafx.scene.control.CheckBox) dialog().lookup("#setting-half-duplex")).setSelected(true);
            javafx.scene.control.CheckBox cue = (javafx.scene.control.CheckBox) dialog().lookup("#setting-listening-cue");
            assertTrue(cue.isSelected(), "the listening cue is on by default");
            cue.setSelected(false);
            return null;
        });
        DialogPane pane = dialog();
        robot.clickOn(pane.lookupButton(ButtonType.OK));
        GuiHarness.waitFor(() -> app.window.mainViewModel().settingsProperty().get().maxTokens() == 99);

        app.restart();
        AppSettings s = app.context.settings();
        assertEquals(0.35, s.temperature(), 1e-9);
        assertEquals(99, s.maxTokens());
        assertEquals(Theme.DARK, s.theme());
        assertEquals(KvFormat.INT8, s.kvCache());
        assertEquals(WeightFormat.INT8, s.weights());
        assertEquals("low", s.noiseSuppression());
        assertTrue(s.halfDuplex());
        assertFalse(s.listeningCue(), "the listening cue switched off in the dialog stays off");
        assertEquals("on", s.echoCancellation());
        long kvInt8 = app.context.chat().model().orElseThrow().kvBudgetBytes();
        assertTrue(kvInt8 < kvF32 * 0.35, "the model runs with an int8 KV cache (f16 would be half): " + kvInt8 + " vs " + kvF32 + " bytes");
        assertEquals(tiny.toString(), s.modelPath(), "untouched fields keep their values");
        assertTrue(robot.lookup("#theme-toggle").queryAs(ToggleButton.class).isSelected(), "the window opens dark");
    }

    @Test
    void aBadValueKeepsTheDialogOpenWithTheReason() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 16));
        app.start();
        robot.clickOn("#settings-button");
        GuiHarness.waitFor(() -> dialog() != null);
        robot.doubleClickOn(dialog().lookup("#setting-top-p")).eraseText(8).write("7");
        DialogPane pane = dialog();
        robot.clickOn(pane.lookupButton(ButtonType.OK));
        GuiHarness.waitFor(() -> !((javafx.scene.control.Label) dialog().lookup("#settings-error")).getText().isEmpty());
        assertTrue(((javafx.scene.control.Label) dialog().lookup("#settings-error")).getText().contains("top-p"));
        robot.clickOn(pane.lookupButton(ButtonType.CANCEL));
        GuiHarness.waitFor(() -> dialog() == null);
        assertEquals(0.95, app.context.settings().topP(), 1e-9, "nothing was saved");
    }

    @Test
    void theDashboardShowsTheLatencyBarsOfATurn() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 24));
        app.start();
        robot.clickOn("#message-input").write("Measure me").type(KeyCode.ENTER);
        GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get()
                && app.window.chatViewModel().messages().size() == 2);
        robot.clickOn("Dashboard");
        GuiHarness.waitFor(() -> app.window.dashboardViewModel().turns().size() == 1);

        @SuppressWarnings("unchecked")
        StackedBarChart<String, Number> chart = robot.lookup("#latency-chart").queryAs(StackedBarChart.class);
        List<XYChart.Series<String, Number>> series = GuiHarness.onFx(() -> List.copyOf(chart.getData()));
        assertEquals(List.of("Transcript", "Queued", "Saved", "Prompt → first token", "Generation",
                "First audio"),
                series.stream().map(XYChart.Series::getName).toList());
        for (XYChart.Series<String, Number> s : series) {
            assertEquals(List.of("#1"), s.getData().stream().map(XYChart.Data::getXValue).toList());
        }
        double saved = series.get(2).getData().getFirst().getYValue().doubleValue();
        double prompt = series.get(3).getData().getFirst().getYValue().doubleValue();
        double generation = series.get(4).getData().getFirst().getYValue().doubleValue();
        assertTrue(saved > 0, "writing the user's message takes time: " + saved + " ms");
        assertTrue(prompt > 0 && generation >= 0, "prompt " + prompt + " ms, generation " + generation + " ms");
        Node bar = series.get(3).getData().getFirst().getNode();
        GuiHarness.waitFor(() -> bar.getBoundsInParent().getHeight() > 0 && bar.isVisible());
        for (XYChart.Series<String, Number> s : series) {
            assertTrue(s.getData().getFirst().getNode().getStyleClass().contains("chart-bar"), "a bar per stage");
        }
        GuiHarness.waitFor(() -> robot.lookup("#gauge-kv .gauge-value").queryLabeled().getText().contains(" / "));
        String rss = robot.lookup("#gauge-rss .gauge-value").queryLabeled().getText();
        assertTrue(rss.matches("\\d+\\.\\d (MiB|GiB)"), "the resident size with its unit: " + rss);
        assertEquals("no GPU backend: the model runs on the CPU or a server",
                robot.lookup("#gauge-gpu .gauge-value").queryLabeled().getText(), "the GPU gauge says why it is empty");
        assertTrue(app.window.dashboardViewModel().samplesProperty().get() >= 1);
        String echo = robot.lookup("#echo-label").queryLabeled().getText();
        assertTrue(echo.startsWith("Echo canceller: "), echo);
    }

    /** The settings dialog's pane while it is showing, else null (read on the FX thread). */
    private static DialogPane dialog() throws Exception {
        return GuiHarness.onFx(() -> javafx.stage.Window.getWindows().stream()
                .filter(javafx.stage.Window::isShowing)
                .map(w -> w.getScene().getRoot())
                .filter(r -> r instanceof DialogPane && "settings-dialog".equals(r.getId()))
                .map(DialogPane.class::cast)
                .findFirst().orElse(null));
    }
}
