package dev.parley.app.gui.smoke;

import dev.parley.app.gui.MainWindow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;

/**
 * What the window smoke test checks once the window is up (on the FX thread): the stage shows the main scene at its
 * size, with the chat and dashboard tabs, the top bar's Models and Settings buttons and a model status that says
 * something; and the scene renders to pixels that are not a blank fill. Each failure is one line.
 */
public final class SmokeCheck {
    /** Fewer distinct colours than this in a sampled snapshot means nothing was drawn. */
    static final int MIN_COLOURS = 20;

    private SmokeCheck() {
    }

    public static List<String> failures(MainWindow window) {
        List<String> bad = new ArrayList<>();
        Scene scene = window.scene();
        if (!window.stage().isShowing()) {
            bad.add("expected the window to be showing but it is not");
        }
        if (window.stage().getScene() != scene || !"main-window".equals(scene.getRoot().getId())) {
            bad.add("expected the stage to show the main scene (#main-window) but found " + window.stage().getScene()
                    .getRoot().getId());
        }
        if (scene.getWidth() != MainWindow.WIDTH || scene.getHeight() != MainWindow.HEIGHT) {
            bad.add("expected a " + (int) MainWindow.WIDTH + "x" + (int) MainWindow.HEIGHT + " scene but found "
                    + scene.getWidth() + "x" + scene.getHeight());
        }
        Node tabs = scene.lookup("#main-tabs");
        if (!(tabs instanceof TabPane pane) || pane.getTabs().size() < 2) {
            bad.add("expected the chat and dashboard tabs but found " + tabs);
        }
        for (String id : List.of("#models-button", "#settings-button")) {
            Node n = scene.lookup(id);
            if (n == null || !n.isVisible()) {
                bad.add("expected a visible " + id + " in the top bar but found " + n);
            }
        }
        Node status = scene.lookup("#model-status");
        if (!(status instanceof Label l) || l.getText().isBlank()) {
            bad.add("expected the model status to say something but found " + status);
        }
        int colours = colours(scene.snapshot(null));
        if (colours < MIN_COLOURS) {
            bad.add("expected the window to draw its content but a snapshot has only " + colours + " colours");
        }
        return bad;
    }

    static int colours(WritableImage image) {
        PixelReader pixels = image.getPixelReader();
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < (int) image.getHeight(); y += 4) {
            for (int x = 0; x < (int) image.getWidth(); x += 4) {
                seen.add(pixels.getArgb(x, y));
            }
        }
        return seen.size();
    }
}
