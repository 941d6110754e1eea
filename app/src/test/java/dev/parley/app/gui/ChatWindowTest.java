package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.chat.MessageItem;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** The chat window driven like a user would, headless, against the real engine and a real database. */
class ChatWindowTest {
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
    void typingAMessageAndEnterShowsItAndAStreamedReply() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 48));
        app.start();
        robot.clickOn("#message-input").write("Hello Parley").type(KeyCode.ENTER);

        GuiHarness.waitFor(() -> app.window.chatViewModel().messages().size() == 2
                && !app.window.chatViewModel().busyProperty().get());
        List<MessageItem> shown = GuiHarness.onFx(() -> List.copyOf(app.window.chatViewModel().messages()));
        assertEquals(Role.USER, shown.get(0).role());
        assertEquals("Hello Parley", shown.get(0).text());
        assertEquals(Role.ASSISTANT, shown.get(1).role());
        assertFalse(shown.get(1).text().isBlank(), "a reply was streamed");
        Label userText = robot.lookup(".bubble-user .user-text").queryAs(Label.class);
        assertEquals("Hello Parley", userText.getText());
        assertEquals(1, robot.lookup(".bubble-assistant").queryAll().size());
        assertTrue(robot.lookup(".bubble-assistant .md-text").queryAll().size() >= 1, "the reply is rendered");
        assertEquals("", robot.lookup("#message-input").queryTextInputControl().getText(), "the field is cleared");

        long conversation = app.window.chatViewModel().conversationIdProperty().get();
        List<StoredMessage> stored = app.context.store().messages(conversation);
        assertEquals(2, stored.size());
        assertEquals(shown.get(1).text(), stored.get(1).content(), "what is shown is what was stored");
        long updates = app.window.chatViewModel().streamedUpdatesProperty().get();
        int tokens = app.context.chat().snapshot().lastTurn().orElseThrow().tokens();
        assertTrue(updates >= 1 && updates <= tokens, "coalesced: " + updates + " UI updates for " + tokens + " tokens");
        assertEquals("Hello Parley", app.context.store().find(conversation).orElseThrow().title(),
                "the first message names the conversation");
    }

    @Test
    void aNewConversationAndItsMessagesSurviveARestart() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 16));
        app.start();
        app.press("new-conversation");
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 1);
        robot.clickOn("#message-input").write("Remember me").type(KeyCode.ENTER);
        GuiHarness.waitFor(() -> app.window.chatViewModel().messages().size() == 2
                && !app.window.chatViewModel().busyProperty().get());
        String reply = GuiHarness.onFx(() -> app.window.chatViewModel().messages().get(1).text());

        app.restart();
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 1
                && app.window.chatViewModel().messages().size() == 2);
        assertEquals("Remember me", GuiHarness.onFx(() ->
                app.window.conversationsViewModel().items().getFirst().title()), "the first message named it");
        assertEquals("Remember me", GuiHarness.onFx(() -> app.window.chatViewModel().messages().get(0).text()));
        assertEquals(reply, GuiHarness.onFx(() -> app.window.chatViewModel().messages().get(1).text()));
        Node cell = robot.lookup(".conversation-title").query();
        assertEquals("Remember me", ((Label) cell).getText());
    }

    @Test
    void aSpokenTurnFromTheVoiceLoopIsShownMarkedAndStreamsItsReplyToSpeech() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 24));
        app.start();
        StringBuilder spokenReply = new StringBuilder();
        Thread voiceThread = Thread.ofPlatform().name("voice-loop").start(() -> {
            try {
                app.window.chatViewModel().spokenTurns().respond("What is the weather like", spokenReply::append,
                        () -> false);
            } catch (Exception e) {
                spokenReply.append("FAILED: ").append(e);
            }
        });
        voiceThread.join(TimeUnit.SECONDS.toMillis(GuiHarness.TIMEOUT_S));
        assertFalse(voiceThread.isAlive(), "the spoken turn returned");
        GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get());
        List<MessageItem> shown = GuiHarness.onFx(() -> List.copyOf(app.window.chatViewModel().messages()));
        assertEquals(2, shown.size());
        assertTrue(shown.get(0).spoken() && shown.get(1).spoken(), "both halves of the turn are marked spoken");
        assertEquals(shown.get(1).text(), spokenReply.toString().strip(), "speech got the same text as the screen");
        assertEquals(1, robot.lookup(".bubble-user .tag-spoken").queryAll().size());
        List<StoredMessage> stored = app.context.store().messages(
                app.window.chatViewModel().conversationIdProperty().get());
        assertTrue(stored.get(0).spoken() && stored.get(1).spoken());
    }

    @Test
    void theFirstRunAdoptsAnInstalledModelAndOtherwiseOffersTheDemo() throws Exception {
        app = new GuiHarness(home);
        app.open();
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get());
        assertTrue(robot.lookup("#use-demo-model").query().isVisible());
        assertTrue(GuiHarness.onFx(() -> app.window.mainViewModel().modelStatusProperty().get())
                .startsWith("No model installed"));
        app.stop();

        java.nio.file.Files.createDirectories(app.home.modelStore().modelsDir());
        Path installed = java.nio.file.Files.copy(tiny, app.home.modelStore().modelsDir().resolve("tiny.gguf"));
        app.start();
        assertEquals(installed.toString(), app.context.settings().modelPath(), "adopted and saved in the settings");
        assertFalse(robot.lookup("#use-demo-model").query().isVisible());
    }
}
