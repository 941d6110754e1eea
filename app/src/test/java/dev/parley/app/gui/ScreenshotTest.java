package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.ConversationStore;
import dev.parley.engine.tokenizer.Role;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * Renders the chat and the dashboard at 1280x800 with {@code scene.snapshot} and writes them to
 * {@code docs/screenshots/} for the README. The chat shows a seeded conversation (so the Markdown
 * rendering has something to show: the test model's replies are random words); the dashboard shows
 * real turns of the engine on a synthesized model.
 */
class ScreenshotTest {
    @TempDir
    Path dir;

    private GuiHarness app;
    private final FxRobot robot = new FxRobot();

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void chatAndDashboardAt1280x800() throws Exception {
        Path model = TestModels.tiny(dir);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ConversationStore store = ConversationStore.open(home.resolve("conversations.db"))) {
            store.create("Weekend in Lisbon");
            store.create("Bread without a mixer");
            long id = store.create("Sorting a list in Java").id();
            store.append(id, Role.USER, "How do I sort a list of names in Java, ignoring case?", true, false);
            store.append(id, Role.ASSISTANT, """
                    Use `List.sort` with a case-insensitive comparator:

                    ```java
                    names.sort(String.CASE_INSENSITIVE_ORDER);
                    ```

                    A few things to know:
                    - It sorts **in place**; use `stream().sorted(...)` for a new list.
                    - For names in other languages, prefer a `Collator` for the user's locale.
                    - Sorting is stable, so equal names keep their order.""", false, false);
            store.append(id, Role.USER, "And in reverse order?", false, false);
            store.append(id, Role.ASSISTANT, """
                    Reverse the comparator: `names.sort(String.CASE_INSENSITIVE_ORDER.reversed());`

                    1. Build the comparator once.
                    2. Reuse it wherever you sort the same kind of data.""", false, false);
        }
        app = new GuiHarness(home);
        app.writeSettings(GuiHarness.settingsFor(model, 1024, 40));
        app.start();

        // Real turns for the dashboard, in a conversation of their own.
        GuiHarness.onFx(() -> {
            app.window.conversationsViewModel().newConversation();
            return null;
        });
        for (int i = 1; i <= 5; i++) {
            // Typing with the robot is what ChatWindowTest checks; here the turns only feed the dashboard.
            String question = "Question number " + i;
            GuiHarness.onFx(() -> {
                app.window.chatViewModel().inputProperty().set(question);
                app.window.chatViewModel().send();
                return null;
            });
            int expected = 2 * i;
            GuiHarness.waitFor(() -> !app.window.chatViewModel().busyProperty().get()
                    && app.window.chatViewModel().messages().size() == expected);
        }
        GuiHarness.onFx(() -> {
            long seeded = app.context.store().list().stream()
                    .filter(c -> c.title().equals("Sorting a list in Java")).findFirst().orElseThrow().id();
            app.window.conversationsViewModel().select(seeded);
            app.window.showTab(0);
            return null;
        });
        GuiHarness.waitFor(() -> app.window.chatViewModel().messages().size() == 4);
        Path out = screenshots();
        Path chat = app.snapshot(out.resolve("chat.png"));

        GuiHarness.onFx(() -> {
            app.window.showTab(1);
            return null;
        });
        GuiHarness.waitFor(() -> app.window.dashboardViewModel().turns().size() == 5);
        Path dashboard = app.snapshot(out.resolve("dashboard.png"));

        app.press("theme-toggle");
        GuiHarness.waitFor(() -> app.context.settings().theme() == dev.parley.app.store.Theme.DARK);
        GuiHarness.onFx(() -> {
            app.window.showTab(0);
            return null;
        });
        Path dark = app.snapshot(out.resolve("chat-dark.png"));
        assertTrue(averageLuminance(ImageIO.read(dark.toFile())) < averageLuminance(ImageIO.read(chat.toFile())) / 2,
                "the dark theme is dark");

        for (Path p : new Path[] {chat, dashboard, dark}) {
            BufferedImage img = ImageIO.read(p.toFile());
            assertEquals(1280, img.getWidth());
            assertEquals(800, img.getHeight());
            assertTrue(distinctColours(img) > 50, p + " has content, not a blank fill");
        }
    }

    private static double averageLuminance(BufferedImage img) {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                int rgb = img.getRGB(x, y);
                sum += 0.299 * ((rgb >> 16) & 255) + 0.587 * ((rgb >> 8) & 255) + 0.114 * (rgb & 255);
                n++;
            }
        }
        return sum / n;
    }

    private static int distinctColours(BufferedImage img) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                colours.add(img.getRGB(x, y));
            }
        }
        return colours.size();
    }

    /**
     * Where the PNGs go: {@code target/screenshots} of the module, so that a test run leaves the
     * checkout clean; with {@code -Dparley.screenshots.update=true}, {@code docs/screenshots} of the
     * repository (found from the module folder the tests run in), to refresh the README's pictures.
     */
    private static Path screenshots() throws Exception {
        if (!Boolean.getBoolean("parley.screenshots.update")) {
            return Files.createDirectories(Path.of("target", "screenshots").toAbsolutePath());
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("mvnw"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("expected to run inside the Parley repository but found no mvnw above "
                    + Path.of("").toAbsolutePath());
        }
        return Files.createDirectories(p.resolve("docs/screenshots"));
    }
}
