package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.ConversationSummary;
import dev.parley.app.store.StoredMessage;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** Search, rename, delete in the sidebar, and the regenerate button, on the real database and engine. */
class ConversationListTest {
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

    private void say(String text, int messagesAfter) throws Exception {
        robot.clickOn("#message-input").write(text).type(KeyCode.ENTER);
        GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get()
                && app.window.chatViewModel().messages().size() == messagesAfter);
    }

    @Test
    void searchRenameAndDelete() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 8));
        app.start();
        say("Apples and pears", 2);
        app.press("new-conversation");
        say("Trains to Porto", 2);
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 2);

        robot.clickOn("#conversation-search").write("porto");
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 1);
        assertEquals("Trains to Porto", GuiHarness.onFx(() ->
                app.window.conversationsViewModel().items().getFirst().title()));
        robot.doubleClickOn("#conversation-search").eraseText(5);
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 2);

        ConversationSummary apples = app.context.store().search("Apples").getFirst();
        GuiHarness.onFx(() -> {
            app.window.conversationsViewModel().rename(apples.id(), "Fruit");
            return null;
        });
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().stream()
                .anyMatch(c -> c.title().equals("Fruit")));
        assertTrue(robot.lookup(".conversation-title").queryAll().stream()
                .anyMatch(n -> ((javafx.scene.control.Label) n).getText().equals("Fruit")), "the list shows it");

        long open = app.window.chatViewModel().conversationIdProperty().get();
        GuiHarness.onFx(() -> {
            app.window.conversationsViewModel().delete(open);
            return null;
        });
        GuiHarness.waitFor(() -> app.window.conversationsViewModel().items().size() == 1
                && app.window.chatViewModel().messages().isEmpty());
        assertTrue(app.context.store().find(open).isEmpty());
        assertEquals(List.of(), app.context.store().messages(open));
    }

    @Test
    void regenerateReplacesTheLastReply() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(tiny, 512, 12));
        app.start();
        say("Say something", 2);
        long id = app.window.chatViewModel().conversationIdProperty().get();
        StoredMessage before = app.context.store().messages(id).get(1);
        app.press("regenerate-button");
        GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get()
                && app.context.store().messages(id).size() == 2
                && app.context.store().messages(id).get(1).id() != before.id());
        List<StoredMessage> after = app.context.store().messages(id);
        assertNotEquals(before.id(), after.get(1).id());
        assertEquals(before.content(), after.get(1).content(), "greedy decoding answers the same again");
        assertEquals(2, GuiHarness.onFx(() -> app.window.chatViewModel().messages().size()));
        assertEquals(after.get(1).content(), GuiHarness.onFx(() -> app.window.chatViewModel().messages().get(1).text()));
    }
}
