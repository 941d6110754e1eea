package dev.parley.app.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.gui.smoke.SmokeCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code parley gui --smoke-test} checks (the installed package's CI check): nothing is wrong with the real
 * window, and a window that lost its main scene's content is caught.
 */
class SmokeCheckTest {
    @TempDir
    Path home;

    private GuiHarness app;

    @AfterEach
    void close() throws Exception {
        if (app != null) {
            app.stop();
        }
    }

    @Test
    void theRealWindowPassesAndAnEmptyOneFails() throws Exception {
        app = new GuiHarness(home).open();
        GuiHarness.waitFor(() -> !app.window.mainViewModel().loadingProperty().get());
        assertEquals(List.of(), GuiHarness.onFx(() -> SmokeCheck.failures(app.window)));

        List<String> broken = GuiHarness.onFx(() -> {
            ((javafx.scene.layout.BorderPane) app.window.scene().getRoot()).setCenter(null);
            ((javafx.scene.layout.BorderPane) app.window.scene().getRoot()).setTop(null);
            return SmokeCheck.failures(app.window);
        });
        assertTrue(broken.stream().anyMatch(f -> f.contains("chat and dashboard tabs")), broken.toString());
        assertTrue(broken.stream().anyMatch(f -> f.contains("#models-button")), broken.toString());
        assertTrue(broken.stream().anyMatch(f -> f.contains("model status")), broken.toString());
    }
}
