package dev.parley.app.gui.dashboard;

import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;

/** One memory figure: name, value text and a bar for its share of a limit. */
final class MemoryGauge extends VBox {
    private final Label value = new Label();
    private final ProgressBar bar = new ProgressBar(0);

    MemoryGauge(String id, String name, String tooltip) {
        setId(id);
        getStyleClass().add("gauge");
        Label title = new Label(name);
        title.getStyleClass().add("gauge-name");
        value.getStyleClass().add("gauge-value");
        bar.setMaxWidth(Double.MAX_VALUE);
        getChildren().addAll(title, value, bar);
        Tooltip.install(this, new Tooltip(tooltip));
    }

    /** Shows {@code text}; {@code fraction} in [0, 1] fills the bar, a negative one hides it. */
    void set(String text, double fraction) {
        value.setText(text);
        bar.setVisible(fraction >= 0);
        bar.setProgress(Math.clamp(fraction, 0, 1));
    }

    String text() {
        return value.getText();
    }
}
