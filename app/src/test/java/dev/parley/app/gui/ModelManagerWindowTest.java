package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.javafx.scene.input.DragboardHelper;
import com.sun.javafx.tk.Toolkit;
import dev.parley.app.TestModels;
import dev.parley.app.gui.models.ModelServer;
import dev.parley.app.gui.models.TestCatalogs;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Label;
import javafx.scene.input.DataFormat;
import javafx.scene.input.DragEvent;
import javafx.scene.input.Dragboard;
import javafx.scene.input.TransferMode;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model manager in the real window (headless Monocle): the Models button opens it; a catalog model downloads
 * from a real HTTP server on localhost with progress, pauses, resumes with a ranged request, is used (the window
 * loads it) and deleted; a cancelled download leaves nothing; a GGUF file dropped on the main window is opened and
 * used, a corrupt one is refused with a visible message. Writes the manager's screenshot.
 */
class ModelManagerWindowTest {
    private static final long HOLD = 300_000;

    @TempDir
    Path dir;

    private GuiHarness app;
    private ModelServer server;

    @BeforeEach
    void open() throws Exception {
        byte[] model = Files.readAllBytes(TestModels.tiny(Files.createDirectories(dir.resolve("src"))));
        server = new ModelServer("/tiny.gguf", model);
        app = new GuiHarness(dir.resolve("home"));
        app.catalog = TestCatalogs.withTiny(server.url("/tiny.gguf"), server.size(), server.sha256());
        app.open();
        GuiHarness.waitFor(() -> app.window.mainViewModel().noModelProperty().get());
        app.press("models-button");
        GuiHarness.waitFor(() -> manager() != null && manager().getWindow().isShowing()
                && manager().lookup("#download-tiny-test") != null && manager().lookup("#download-tiny-test").isVisible());
    }

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
        server.close();
    }

    @Test
    void downloadPauseResumeUseAndDelete() throws Exception {
        assertEquals("Not installed", text("#model-status-tiny-test"));
        server.holdAfter(HOLD);
        press("download-tiny-test");
        GuiHarness.waitFor(() -> manager().lookup("#pause-tiny-test").isVisible()
                && text("#model-detail-tiny-test").contains("%"));
        press("pause-tiny-test");
        server.release();
        GuiHarness.waitFor(() -> text("#model-status-tiny-test").equals("Paused"));
        assertEquals("Resume", ((ButtonBase) manager().lookup("#download-tiny-test")).getText());
        assertTrue(text("#model-detail-tiny-test").startsWith("Paused at"), text("#model-detail-tiny-test"));
        Path part = app.home.modelStore().modelsDir().resolve("tiny.gguf.part");
        assertTrue(Files.size(part) > 0 && Files.size(part) < server.size());
        Path shot = screenshot();
        BufferedImage img = ImageIO.read(shot.toFile());
        assertEquals((int) dev.parley.app.gui.models.ModelManagerWindow.WIDTH, img.getWidth());
        assertTrue(colours(img) > 50, "the screenshot has content");


        press("download-tiny-test");
        GuiHarness.waitFor(() -> text("#model-status-tiny-test").equals("Installed"));
        assertEquals("bytes=" + server.ranges().get(1).substring(6), server.ranges().get(1));
        assertTrue(server.ranges().get(1).matches("bytes=[1-9][0-9]*-"), "resumed with a range: " + server.ranges());

        press("use-tiny-test");
        GuiHarness.waitFor(() -> app.window.mainViewModel().readyProperty().get());
        Path installed = app.home.modelStore().modelsDir().resolve("tiny.gguf");
        assertEquals(installed.toString(), app.context.settings().modelPath());
        GuiHarness.waitFor(() -> text("#model-status-tiny-test").equals("In use"));
        assertFalse(manager().lookup("#delete-tiny-test").isVisible(), "the model in use cannot be deleted");
        String memory = text("#model-memory-tiny-test");
        assertTrue(memory.endsWith("tokens, KV f32"), memory);

        // Another model in use, then the downloaded one can go.
        Path other = TestModels.slow(Files.createDirectories(dir.resolve("mine")));
        drop(app.window.scene(), other);
        GuiHarness.waitFor(() -> app.context.settings().modelPath().equals(other.toAbsolutePath().toString()));
        GuiHarness.waitFor(() -> manager().lookup("#delete-tiny-test").isVisible());
        press("delete-tiny-test");
        GuiHarness.waitFor(() -> text("#model-status-tiny-test").equals("Not installed"));
        assertFalse(Files.exists(installed));
    }

    @Test
    void cancelLeavesNothingAndACorruptDropSaysWhatWasExpected() throws Exception {
        server.holdAfter(HOLD);
        press("download-tiny-test");
        GuiHarness.waitFor(() -> text("#model-detail-tiny-test").contains("%"));
        press("cancel-tiny-test");
        server.release();
        GuiHarness.waitFor(() -> text("#model-status-tiny-test").equals("Not installed"));
        assertFalse(Files.exists(app.home.modelStore().modelsDir().resolve("tiny.gguf.part")));
        assertEquals("Download of TinyTest-10M-Chat (Q8_0) cancelled", text("#models-message"));

        Path corrupt = Files.write(dir.resolve("broken.gguf"), "GGUF but not really".getBytes());
        drop(app.window.scene(), corrupt);
        GuiHarness.waitFor(() -> text("#models-message").startsWith("Could not open broken.gguf"));
        Label message = (Label) manager().lookup("#models-message");
        assertTrue(GuiHarness.onFx(message::isVisible));
        assertTrue(message.getStyleClass().contains("danger"), "shown as an error");
        assertTrue(text("#models-message").contains("expected"), text("#models-message"));
        assertEquals("", app.context.settings().modelPath(), "a corrupt file is not adopted");

        Path good = TestModels.tiny(Files.createDirectories(dir.resolve("mine")));
        drop(manager(), good);
        GuiHarness.waitFor(() -> app.window.mainViewModel().readyProperty().get());
        assertEquals(good.toAbsolutePath().toString(), app.context.settings().modelPath());
    }

    private Scene manager() {
        return app.window.modelManager().scene();
    }

    private String text(String id) throws Exception {
        return GuiHarness.onFx(() -> {
            Node n = manager().lookup(id);
            if (!(n instanceof Label l)) {
                throw new AssertionError("expected a label " + id + " but found " + n);
            }
            return l.getText();
        });
    }

    private void press(String id) throws Exception {
        GuiHarness.onFx(() -> {
            Node n = manager().lookup("#" + id);
            if (!(n instanceof ButtonBase b) || !b.isVisible() || b.isDisabled()) {
                throw new AssertionError("expected a visible, enabled button #" + id + " but found " + n);
            }
            b.fire();
            return null;
        });
    }

    /**
     * Drops {@code file} on {@code scene}: the drop event the desktop sends, with a real dragboard holding the file.
     * (The drag-over before it needs the toolkit's own drag gesture, which a headless run has no way to start.)
     */
    private static void drop(Scene scene, Path file) throws Exception {
        GuiHarness.onFx(() -> {
            Dragboard board = DragboardHelper.createDragboard(Toolkit.getToolkit().createLocalClipboard());
            board.setContent(Map.of(DataFormat.FILES, List.<File>of(file.toFile())));
            Node target = scene.getRoot();
            Event.fireEvent(target, new DragEvent(DragEvent.DRAG_DROPPED, board, 10, 10, 10, 10, TransferMode.COPY,
                    null, target, null));
            return null;
        });
    }

    private Path screenshot() throws Exception {
        javafx.scene.image.WritableImage image = GuiHarness.onFx(() -> {
            manager().getRoot().applyCss();
            manager().getRoot().layout();
            return manager().snapshot(null);
        });
        BufferedImage out = new BufferedImage((int) image.getWidth(), (int) image.getHeight(),
                BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < out.getHeight(); y++) {
            for (int x = 0; x < out.getWidth(); x++) {
                out.setRGB(x, y, image.getPixelReader().getArgb(x, y));
            }
        }
        Path folder = Path.of("target", "screenshots").toAbsolutePath();
        if (Boolean.getBoolean("parley.screenshots.update")) {
            Path p = Path.of("").toAbsolutePath();
            while (p != null && !Files.exists(p.resolve("mvnw"))) {
                p = p.getParent();
            }
            folder = p == null ? folder : p.resolve("docs/screenshots");
        }
        Path file = Files.createDirectories(folder).resolve("models.png");
        ImageIO.write(out, "png", file.toFile());
        return file;
    }

    private static int colours(BufferedImage img) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                seen.add(img.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
