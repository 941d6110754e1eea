package dev.parley.app.gui.models;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** One row of the model manager: what the model is, what it needs, where it stands, and its actions. */
final class ModelRowView extends HBox {
    static final double NAME = 330;
    static final double FAMILY = 110;
    static final double SIZE = 90;
    static final double MEMORY = 250;
    static final double STATUS = 110;

    ModelRowView(ModelItem item, ModelManagerViewModel vm) {
        super(10);
        String id = item.idSuffix();
        setId("model-row-" + id);
        getStyleClass().add("model-row");
        setAlignment(Pos.CENTER_LEFT);

        Label name = new Label(item.name());
        name.getStyleClass().add(Styles.TEXT_BOLD);
        Label detail = new Label();
        detail.setId("model-detail-" + id);
        detail.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        detail.textProperty().bind(item.detailProperty());
        detail.setWrapText(true);
        ProgressBar bar = new ProgressBar();
        bar.setId("model-progress-" + id);
        bar.setMaxWidth(Double.MAX_VALUE);
        bar.progressProperty().bind(item.progressProperty());
        BooleanBinding showBar = item.stateProperty().isEqualTo(ModelState.DOWNLOADING)
                .or(item.stateProperty().isEqualTo(ModelState.PAUSED));
        bar.visibleProperty().bind(showBar);
        bar.managedProperty().bind(showBar);
        VBox nameBox = new VBox(2, name, bar, detail);
        fixed(nameBox, NAME);
        if (item.entry().isEmpty()) {
            Tooltip.install(name, new Tooltip(item.file().toString()));
        }

        Label family = fixed(new Label(item.family()), FAMILY);
        Label size = fixed(new Label(), SIZE);
        size.textProperty().bind(item.sizeTextProperty());
        Label memory = fixed(new Label(), MEMORY);
        memory.setId("model-memory-" + id);
        memory.textProperty().bind(item.memoryProperty());
        Label status = fixed(new Label(), STATUS);
        status.setId("model-status-" + id);
        status.textProperty().bind(Bindings.createStringBinding(() -> item.inUseProperty().get() ? "In use"
                : switch (item.state()) {
                    case AVAILABLE -> "Not installed";
                    case DOWNLOADING -> "Downloading";
                    case PAUSED -> "Paused";
                    case INSTALLED -> item.entry().isPresent() ? "Installed" : "On disk";
                }, item.stateProperty(), item.inUseProperty()));

        Button download = button("download-" + id, "Download", Styles.SUCCESS, () -> vm.download(item));
        download.textProperty().bind(Bindings.when(item.stateProperty().isEqualTo(ModelState.PAUSED))
                .then("Resume").otherwise("Download"));
        show(download, item.entry().isPresent(), item.stateProperty().isEqualTo(ModelState.AVAILABLE)
                .or(item.stateProperty().isEqualTo(ModelState.PAUSED)));
        Button pause = button("pause-" + id, "Pause", null, () -> vm.pause(item));
        show(pause, true, item.stateProperty().isEqualTo(ModelState.DOWNLOADING));
        Button cancel = button("cancel-" + id, "Cancel", null, () -> vm.cancel(item));
        show(cancel, true, showBar);
        Button use = button("use-" + id, "Use", Styles.ACCENT, () -> vm.use(item));
        show(use, true, item.stateProperty().isEqualTo(ModelState.INSTALLED).and(item.inUseProperty().not()));
        Button delete = button("delete-" + id, "Delete", Styles.DANGER, () -> vm.delete(item));
        show(delete, true, item.stateProperty().isEqualTo(ModelState.INSTALLED).and(item.inUseProperty().not()));
        if (item.unsupported() != null) {
            use.setDisable(true);
            use.setTooltip(new Tooltip(item.unsupported()));
        }
        HBox actions = new HBox(6, download, pause, cancel, use, delete);
        actions.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(actions, Priority.ALWAYS);
        getChildren().addAll(nameBox, family, size, memory, status, actions);
    }

    private static <T extends javafx.scene.layout.Region> T fixed(T node, double width) {
        node.setMinWidth(width);
        node.setPrefWidth(width);
        node.setMaxWidth(width);
        return node;
    }

    private static Button button(String id, String text, String style, Runnable action) {
        Button b = new Button(text);
        b.setId(id);
        b.setMnemonicParsing(false);
        b.getStyleClass().add(Styles.SMALL);
        if (style != null) {
            b.getStyleClass().add(style);
        }
        b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        b.setOnAction(e -> action.run());
        return b;
    }

    private static void show(Button b, boolean ever, javafx.beans.value.ObservableBooleanValue when) {
        if (!ever) {
            b.setVisible(false);
            b.setManaged(false);
            return;
        }
        b.visibleProperty().bind(when);
        b.managedProperty().bind(when);
    }
}
