package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.voice.VoiceViewModel;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.engine.SharedFixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.scene.control.Labeled;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.Mixer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The voice bar when the microphone is away: the window starts while the virtual ALSA capture device's file is
 * missing (ALSA itself cannot open it), the bar says so (which device, that Parley retries) and typed chat stays
 * usable; once the device is back the message clears by itself and the loop listens.
 */
class VoiceDeviceFaultWindowTest {
    @TempDir
    Path dir;

    private GuiHarness app;
    private VirtualSoundDevice device;

    @AfterEach
    void close() throws Exception {
        if (device != null) {
            device.endInput();
        }
        if (app != null) {
            app.stop();
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void theVoiceBarSaysTheMicrophoneIsAwayAndClearsItOnceItIsBack() throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        device = VirtualSoundDevice.create();
        // Java Sound reads each device's formats once, when it first sees it: let it see the device while present
        for (Mixer.Info info : AudioSystem.getMixerInfo()) {
            AudioSystem.getMixer(info).getTargetLineInfo();
        }
        device.unplugMicrophone();
        app = new GuiHarness(dir.resolve("home"));
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(dir), 512, 10, vosk));
        app.start();
        VoiceViewModel voice = app.window.voiceViewModel();
        List<String> statuses = new CopyOnWriteArrayList<>();
        GuiHarness.onFx(() -> {
            statuses.add(voice.statusProperty().get());
            voice.statusProperty().addListener((o, a, t) -> statuses.add(t));
            return null;
        });
        GuiHarness.waitFor(() -> voice.deviceFaultProperty().get()
                || voice.availableProperty().get() && voice.statusProperty().get().startsWith("Voice ready"));
        // Known: after another voice test in the same JVM, ALSA has been seen to open the capture device although
        // its file is gone (not understood yet); the device is then not away, and there is nothing to show
        org.junit.jupiter.api.Assumptions.assumeTrue(voice.deviceFaultProperty().get(),
                "skipped: ALSA opened the virtual capture device although in.raw is gone (seen after another voice "
                        + "test in this JVM); run this class alone. The voice bar said " + statuses);
        String shown = GuiHarness.onFx(() -> label("#voice-status").getText());
        assertTrue(shown.startsWith("The microphone (the default audio device) is unavailable")
                && shown.contains("Parley retries") && shown.contains("typed chat still works"), shown);
        GuiHarness.waitFor(() -> voice.availableProperty().get());      // the loop runs through the outage
        assertTrue(voice.deviceFaultProperty().get(), "the fault stays shown once the loop is up: " + statuses);
        assertEquals(shown, GuiHarness.onFx(() -> label("#voice-status").getText()));

        device.plugInMicrophone();
        GuiHarness.waitFor(() -> !voice.deviceFaultProperty().get());
        String cleared = GuiHarness.onFx(() -> label("#voice-status").getText());
        assertTrue(cleared.startsWith("Voice ready") || cleared.startsWith("Hands-free"), "statuses: " + statuses);
        assertEquals(cleared, voice.statusProperty().get());
    }

    private Labeled label(String selector) {
        return (Labeled) app.window.scene().lookup(selector);
    }
}
