package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.settings.SettingsDialog;
import dev.parley.app.gui.settings.SettingsViewModel;
import dev.parley.app.gui.voice.VoskModelLocator;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.engine.SharedFixtures;
import dev.parley.models.catalog.ModelCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Labeled;
import javafx.scene.control.ProgressBar;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings' microphone test on the virtual sound device: the level meter follows what the microphone hears, and
 * "Say something" shows the transcript (Vosk, the settings' speech model) of a fixture recording said into it.
 */
class MicrophoneTestTest {
    @TempDir
    Path dir;

    private GuiHarness app;
    private VirtualSoundDevice device;
    private SettingsDialog dialog;

    @AfterEach
    void close() throws Exception {
        if (device != null) {
            device.endInput();
        }
        if (dialog != null) {
            GuiHarness.onFx(() -> {
                dialog.close();
                return null;
            });
        }
        if (app != null) {
            app.stop();
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void theLevelMovesAndSaySomethingShowsTheTranscript() throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        PcmAudio whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"),
                16_000);
        device = VirtualSoundDevice.create();
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = ModelCatalog.load();      // and no voice loop: the test has the microphone to itself
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(Files.createDirectories(dir.resolve("m"))), 512, 8,
                vosk));
        app.open();
        AtomicReference<SettingsDialog> opened = new AtomicReference<>();
        GuiHarness.onFx(() -> {
            SettingsDialog d = new SettingsDialog(app.window.stage(), new SettingsViewModel(app.context.settings()),
                    new VoskModelLocator(app.home.modelStore(), app.catalog)::locate);
            d.show();
            opened.set(d);
            return null;
        });
        dialog = opened.get();
        List<Double> levels = new CopyOnWriteArrayList<>();
        GuiHarness.onFx(() -> {
            ((ProgressBar) node("#mic-test-level")).progressProperty().addListener((o, a, v) -> levels.add(v.doubleValue()));
            ((ButtonBase) node("#mic-test-toggle")).fire();
            return null;
        });
        GuiHarness.waitFor(() -> text("#mic-test-status").startsWith("Listening to the default microphone"));
        GuiHarness.onFx(() -> {
            ((ButtonBase) node("#mic-test-say")).fire();
            return null;
        });
        GuiHarness.waitFor(() -> text("#mic-test-status").equals("Say something…"));
        device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
        GuiHarness.waitFor(() -> text("#mic-test-status").startsWith("Heard") || text("#mic-test-status").startsWith("No"));
        assertEquals("Heard: \u201cwhat time is it\u201d", GuiHarness.onFx(() -> text("#mic-test-status")));
        assertEquals("what time is it", GuiHarness.onFx(() -> text("#mic-test-transcript")));
        assertTrue(levels.stream().anyMatch(v -> v > 0.3), "the level meter moved: " + levels.size() + " values");
        assertTrue(!GuiHarness.onFx(() -> node("#mic-test-say").isDisabled()), "ready for another check");
    }

    private Node node(String selector) {
        Node n = dialog.getDialogPane().lookup(selector);
        if (n == null) {
            throw new AssertionError("no " + selector + " in the settings dialog");
        }
        return n;
    }

    private String text(String selector) {
        return ((Labeled) node(selector)).getText();
    }
}
