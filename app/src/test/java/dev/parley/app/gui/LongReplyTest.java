package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.gui.chat.MessageItem;
import dev.parley.app.store.StoredMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** Long replies on a slower synthesized model: the stop button, and a UI that keeps breathing meanwhile. */
class LongReplyTest {
    @TempDir
    static Path models;
    static Path slow;

    @TempDir
    Path home;

    private GuiHarness app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void makeModel() throws Exception {
        slow = TestModels.slow(models);
    }

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    private void startLongReply() throws Exception {
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(slow, 2048, 2000));
        app.start();
        robot.clickOn("#message-input").write("Tell me everything").type(KeyCode.ENTER);
        GuiHarness.waitFor(() -> app.window.chatViewModel().messages().size() == 2
                && !app.window.chatViewModel().messages().get(1).text().isEmpty());
    }

    @Test
    void stopCancelsTheReplyAndKeepsWhatWasWritten() throws Exception {
        startLongReply();
        assertTrue(GuiHarness.onFx(() -> app.window.chatViewModel().busyProperty().get()), "still generating");
        app.press("stop-button");
        GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get());

        MessageItem reply = GuiHarness.onFx(() -> app.window.chatViewModel().messages().get(1));
        assertTrue(reply.interruptedProperty().get(), "the reply is marked stopped");
        assertTrue(GuiHarness.onFx(() -> robot.lookup(".bubble-assistant .tag-interrupted").query().isVisible()));
        StoredMessage stored = app.context.store().messages(
                app.window.chatViewModel().conversationIdProperty().get()).get(1);
        assertTrue(stored.interrupted());
        assertEquals(reply.text(), stored.content());
        int tokens = app.context.chat().snapshot().lastTurn().orElseThrow().tokens();
        assertTrue(tokens > 0 && tokens < 2000, "stopped early after " + tokens + " tokens");
        assertTrue(GuiHarness.onFx(() -> app.window.chatViewModel().statusProperty().get()).contains("stopped"));
    }

    @Test
    void theFxThreadKeepsPulsingWhileALongReplyGenerates() throws Exception {
        startLongReply();
        CountDownLatch frames = new CountDownLatch(30);
        AtomicInteger framesWhileBusy = new AtomicInteger();
        AnimationTimer timer = new AnimationTimer() {
            @Override
            public void handle(long now) {
                if (app.window.chatViewModel().busyProperty().get()) {
                    framesWhileBusy.incrementAndGet();
                    frames.countDown();
                }
            }
        };
        Platform.runLater(timer::start);
        try {
            assertTrue(frames.await(30, TimeUnit.SECONDS), "30 pulses while generating, got " + framesWhileBusy);
            int roundTrips = 0;
            for (int i = 0; i < 20; i++) {
                CountDownLatch done = new CountDownLatch(1);
                Platform.runLater(done::countDown);
                assertTrue(done.await(5, TimeUnit.SECONDS), "a runLater round trip while generating");
                roundTrips++;
            }
            assertEquals(20, roundTrips);
            assertTrue(GuiHarness.onFx(() -> app.window.chatViewModel().busyProperty().get()),
                    "the reply was still being generated all along");
        } finally {
            Platform.runLater(timer::stop);
            app.context.chat().stop();
            GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get());
        }
        List<MessageItem> messages = GuiHarness.onFx(() -> List.copyOf(app.window.chatViewModel().messages()));
        assertTrue(messages.get(1).text().length() > 0);
    }
}
