package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.chat.MessageItem;
import dev.parley.app.gui.voice.VoiceViewModel;
import dev.parley.app.service.TurnLatency;
import dev.parley.app.store.StoredMessage;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Labeled;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's voice bar drives the REAL voice loop (microphone, Vosk, the engine through the chat,
 * MaryTTS, speaker) on the virtual ALSA device: a fixture recording is "said" into the microphone
 * while the push-to-talk key is held; the live transcript, the spoken user message, the reply, the
 * speaking indicator and the dashboard's voice stages must all show up.
 */
class VoiceWindowTest {
    @TempDir
    Path dir;

    private GuiHarness app;
    private VirtualSoundDevice device;

    @AfterEach
    void close() throws Exception {
        if (device != null) {
            device.endInput();       // capture then ends instead of waiting on the pipe
        }
        if (app != null) {
            app.stop();
        }
        if (device != null) {
            device.close();
        }
    }

    @Test
    void pushToTalkRunsASpokenTurnThroughTheWindow() throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        PcmAudio whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"),
                16_000);
        device = VirtualSoundDevice.create();
        app = new GuiHarness(dir.resolve("home"));
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(dir), 512, 10, vosk));
        app.start();
        VoiceViewModel voice = app.window.voiceViewModel();
        GuiHarness.waitFor(() -> voice.availableProperty().get() || voice.statusProperty().get().contains("unavailable"));
        assertTrue(voice.availableProperty().get(), voice.statusProperty().get());
        assertTrue(GuiHarness.onFx(() -> label("#voice-status").getText()).startsWith("Voice ready"));
        assertTrue(GuiHarness.onFx(() -> label("#half-duplex").getTooltip().getText()).contains("no echo cancellation"));

        List<String> partials = new CopyOnWriteArrayList<>();
        List<Boolean> speaking = new CopyOnWriteArrayList<>();
        List<Double> levels = new CopyOnWriteArrayList<>();
        GuiHarness.onFx(() -> {
            voice.partialProperty().addListener((o, a, t) -> partials.add(t));
            voice.speakingProperty().addListener((o, a, on) -> speaking.add(on));
            voice.levelProperty().addListener((o, a, v) -> levels.add(v.doubleValue()));
            return null;
        });

        key(KeyEvent.KEY_PRESSED);                       // Ctrl+Space, the settings' push-to-talk key
        GuiHarness.waitFor(() -> voice.talkingProperty().get());
        assertEquals("Listening…", GuiHarness.onFx(() -> label("#push-to-talk").getText()));
        device.speak(whatTimeIsIt.concat(PcmAudio.silence(1000, 16_000)));
        GuiHarness.waitFor(() -> partials.contains("what time is it"));
        key(KeyEvent.KEY_RELEASED);

        var chat = app.window.chatViewModel();
        GuiHarness.waitFor(() -> chat.messages().size() == 2 && !chat.busyProperty().get());
        MessageItem user = chat.messages().get(0);
        MessageItem reply = chat.messages().get(1);
        assertEquals(Role.USER, user.role());
        assertEquals("what time is it", user.text());
        assertTrue(user.spoken() && reply.spoken(), "both halves of the turn are marked spoken");
        assertTrue(!reply.text().isBlank(), "the engine answered");
        List<StoredMessage> stored = app.context.store().messages(chat.conversationIdProperty().get());
        assertTrue(stored.stream().filter(m -> m.role() != Role.SYSTEM).allMatch(StoredMessage::spoken),
                "stored marked spoken: " + stored);

        // The loop reports the turn's voice stages when its audio has played out.
        GuiHarness.waitFor(() -> speaking.contains(true) && !voice.speakingProperty().get()
                && app.context.chat().snapshot().turns().stream().anyMatch(t -> t.firstAudioMs() > 0));
        TurnLatency turn = app.context.chat().snapshot().turns().getLast();
        assertTrue(turn.spoken(), turn.toString());
        assertTrue(turn.transcriptMs() > 0 && turn.firstAudioMs() > 0, turn.toString());
        assertTrue(levels.stream().anyMatch(v -> v > 0.3), "the level meter moved: " + levels.size() + " values");
        assertTrue(LevelMeter.rmsDbfs(device.played(16_000)) > -40, "the reply was played");

        app.window.showTab(1);
        GuiHarness.waitFor(() -> app.window.dashboardViewModel().turns().stream().anyMatch(t -> t.firstAudioMs() > 0));
        @SuppressWarnings("unchecked")
        StackedBarChart<String, Number> chart = (StackedBarChart<String, Number>) GuiHarness.onFx(
                () -> app.window.scene().lookup("#latency-chart"));
        List<XYChart.Series<String, Number>> series = GuiHarness.onFx(() -> List.copyOf(chart.getData()));
        for (String stage : List.of("Transcript", "Prompt → first token", "First audio")) {
            XYChart.Series<String, Number> s = series.stream().filter(x -> x.getName().equals(stage)).findFirst()
                    .orElseThrow();
            assertTrue(s.getData().getLast().getYValue().doubleValue() > 0, stage + " bar of the spoken turn");
        }
    }

    /** Fires Ctrl+Space at the window, as the keyboard does. */
    private void key(javafx.event.EventType<KeyEvent> type) throws Exception {
        GuiHarness.onFx(() -> {
            Node target = app.window.scene().getFocusOwner() != null ? app.window.scene().getFocusOwner()
                    : app.window.scene().getRoot();
            Event.fireEvent(target, new KeyEvent(type, "", "", KeyCode.SPACE, false, true, false, false));
            return null;
        });
    }

    private Labeled label(String selector) {
        return (Labeled) app.window.scene().lookup(selector);
    }
}
