package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.chat.MessageItem;
import dev.parley.app.gui.voice.AppVoice;
import dev.parley.app.gui.voice.VoiceViewModel;
import dev.parley.app.store.StoredMessage;
import dev.parley.audio.Exchange;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.Speculation;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.engine.SharedFixtures;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's hands-free turns use the same speculation as {@code parley talk}, on the REAL loop (virtual ALSA
 * microphone and speaker, Vosk, the engine through the chat service, MaryTTS): "hello", a pause longer than the
 * 250 ms that start a speculative reply but shorter than the end-of-turn silence, then "goodbye". The reply
 * started on "hello" is withdrawn unheard and leaves nothing in SQLite or in the view; the one started on the
 * whole turn is confirmed at its end and stored once.
 */
class SpeculativeVoiceWindowTest {
    private static final int RATE = 16_000;

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
    void aWithdrawnSpeculationLeavesNothingAndAConfirmedOneIsStoredOnce() throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        PcmAudio hello = trim(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/09-hello.wav"), RATE));
        PcmAudio goodbye = trim(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/10-goodbye.wav"), RATE));
        device = VirtualSoundDevice.create();
        app = new GuiHarness(dir.resolve("home"));
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(dir), 512, 10, vosk));   // 800 ms end of turn
        // Hands-free from the start: switching restarts the loop, and the virtual microphone cannot be opened twice.
        app.beforeWindow = context -> {
            try {
                context.voice().setHandsFree(true);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        app.start();
        VoiceViewModel voice = app.window.voiceViewModel();
        GuiHarness.waitFor(() -> voice.availableProperty().get() || voice.statusProperty().get().contains("unavailable"));
        assertTrue(voice.availableProperty().get(), voice.statusProperty().get());

        var chat = app.window.chatViewModel();
        List<String> everShown = new CopyOnWriteArrayList<>();
        GuiHarness.onFx(() -> {
            chat.messages().addListener((ListChangeListener<MessageItem>) c -> {
                while (c.next()) {
                    c.getAddedSubList().stream().filter(m -> m.role() == Role.USER).forEach(m -> everShown.add(m.text()));
                }
            });
            return null;
        });
        AppVoice loop = (AppVoice) app.context.voice();
        List<Exchange> exchanges = new CopyOnWriteArrayList<>();
        loop.addExchangeListener(exchanges::add);

        // 420 ms: past the 250 ms that start a speculative reply, short of the 800 ms that end the turn.
        device.speak(PcmAudio.silence(300, RATE).concat(hello).concat(PcmAudio.silence(420, RATE)).concat(goodbye)
                .concat(PcmAudio.silence(2000, RATE)));

        try {
            GuiHarness.waitFor(() -> !exchanges.isEmpty() && chat.messages().size() == 2 && !chat.busyProperty().get());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no confirmed spoken turn: exchanges " + exchanges + ", view " + everShown
                    + ", speculation " + loop.speculation() + ", voice status '" + voice.statusProperty().get()
                    + "', chat status '" + chat.statusProperty().get() + "', partial '" + voice.partialProperty().get()
                    + "'", e);
        }
        Exchange heard = exchanges.getFirst();
        String said = heard.userText();
        assertTrue(said.startsWith("hello") && said.endsWith("goodbye"), said);
        assertEquals(new Speculation(2, 1), loop.speculation(),
                "a reply started in the pause (withdrawn), then one on the whole turn (confirmed)");
        assertTrue(heard.latency().complete() && heard.latency().ordered(), heard.latency().toString());

        long conversation = chat.conversationIdProperty().get();
        List<StoredMessage> stored = app.context.store().messages(conversation).stream()
                .filter(m -> m.role() != Role.SYSTEM).toList();
        assertEquals(2, stored.size(), "the confirmed turn, stored once: " + stored);
        assertEquals(Role.USER, stored.get(0).role());
        assertEquals(said, stored.get(0).content());
        assertEquals(Role.ASSISTANT, stored.get(1).role());
        assertTrue(stored.get(0).spoken() && stored.get(1).spoken(), stored.toString());
        assertEquals(1, app.context.store().list().size(), "the withdrawn speculation made no conversation");
        assertEquals(List.of(said), everShown, "the view showed only the confirmed turn");
        List<MessageItem> shown = GuiHarness.onFx(() -> List.copyOf(chat.messages()));
        assertEquals(said, shown.get(0).text());
        assertEquals(stored.get(1).content(), shown.get(1).text());
        assertTrue(LevelMeter.rmsDbfs(device.played(RATE)) > -40, "the confirmed reply was played");
        assertEquals(1, exchanges.size(), "one exchange: the withdrawn reply was never heard");
    }

    /** Cuts the recording's leading and trailing silence (frames under -46 dBFS, the detector's stop level). */
    private static PcmAudio trim(PcmAudio a) {
        int frame = RATE / 50;
        int first = -1;
        int last = -1;
        for (int i = 0; i + frame <= a.length(); i += frame) {
            if (LevelMeter.rmsDbfs(a.slice(i, i + frame)) >= -46) {
                first = first < 0 ? i : first;
                last = i + frame;
            }
        }
        return a.slice(first, last);
    }
}
