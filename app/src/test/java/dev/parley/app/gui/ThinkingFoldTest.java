package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.chat.MessageItem;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TitledPane;
import javafx.scene.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** A reasoning model's thinking block shows folded in the chat window, never in the answer's text. */
class ThinkingFoldTest {
    @TempDir
    Path home;

    @TempDir
    Path models;

    private GuiHarness app;
    private final FxRobot robot = new FxRobot();

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void theThinkingBlockIsFoldedAboveTheAnswer() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(TestModels.tiny(models), 256, 16));
        app.start();
        GuiHarness.onFx(() -> {
            app.window.chatViewModel().messages().add(new MessageItem(Role.USER, "Hello!", false, false, false));
            app.window.chatViewModel().messages().add(new MessageItem(Role.ASSISTANT,
                    "<think>\nThe user greets me.\n</think>\n\nHi there!", false, false, false));
            return null;
        });
        GuiHarness.waitFor(() -> !robot.lookup(".thinking").queryAll().isEmpty());
        TitledPane thinking = robot.lookup(".thinking").queryAs(TitledPane.class);
        assertTrue(GuiHarness.onFx(thinking::isVisible), "a reply with thoughts shows the fold");
        assertFalse(GuiHarness.onFx(thinking::isExpanded), "folded until opened");
        assertEquals("The user greets me.", GuiHarness.onFx(() -> ((Label) thinking.getContent()).getText()));
        for (Node n : robot.lookup(".assistant-text").lookup((Node x) -> x instanceof Text).queryAll()) {
            String text = ((Text) n).getText();
            assertFalse(text.contains("<think>") || text.contains("greets"), "the answer shows no thoughts: " + text);
        }
        assertTrue(robot.lookup(".assistant-text").lookup((Node x) -> x instanceof Text
                && ((Text) x).getText().contains("Hi there!")).tryQuery().isPresent(), "the answer is shown");
    }
}
