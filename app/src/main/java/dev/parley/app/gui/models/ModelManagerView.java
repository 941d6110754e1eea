package dev.parley.app.gui.models;

import atlantafx.base.theme.Styles;
import dev.parley.engine.model.KvFormat;
import java.io.File;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * The model manager's content: the context and KV precision the memory column is computed for, a message line, the
 * list of models with their actions, and a button to open any GGUF file (files can also be dropped on the window).
 */
public final class ModelManagerView extends BorderPane {
    static final List<Integer> CONTEXTS = List.of(512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072);

    private final VBox rows = new VBox();

    public ModelManagerView(ModelManagerViewModel vm) {
        setId("model-manager");
        getStyleClass().add("model-manager");

        ComboBox<Integer> context = new ComboBox<>();
        context.setId("models-context");
        context.getItems().setAll(CONTEXTS);
        if (!CONTEXTS.contains(vm.contextSizeProperty().get())) {
            context.getItems().add(vm.contextSizeProperty().get());
            context.getItems().sort(Integer::compare);
        }
        context.setValue(vm.contextSizeProperty().get());
        context.valueProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.contextSizeProperty().set(b);
            }
        });
        ComboBox<KvFormat> kv = new ComboBox<>();
        kv.setId("models-kv");
        kv.getItems().setAll(KvFormat.values());
        kv.valueProperty().bindBidirectional(vm.kvProperty());
        Button open = new Button("Open a GGUF file…");
        open.setId("models-open");
        open.setMnemonicParsing(false);
        open.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Open a GGUF model");
            chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("GGUF models", "*.gguf"),
                    new FileChooser.ExtensionFilter("All files", "*"));
            File f = chooser.showOpenDialog(getScene().getWindow());
            if (f != null) {
                vm.open(f.toPath());
            }
        });
        Label drop = new Label("or drop a .gguf file on the window");
        drop.getStyleClass().add(Styles.TEXT_MUTED);
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox controls = new HBox(10, new Label("Memory at context"), context, new Label("KV cache"), kv, grow, open,
                drop);
        controls.setAlignment(Pos.CENTER_LEFT);

        Label message = new Label();
        message.setId("models-message");
        message.setWrapText(true);
        message.textProperty().bind(vm.message());
        message.visibleProperty().bind(vm.message().isNotEmpty());
        message.managedProperty().bind(message.visibleProperty());
        vm.errorProperty().addListener((o, a, bad) -> style(message, bad));
        style(message, vm.errorProperty().get());

        HBox header = new HBox(10, head("Model", ModelRowView.NAME), head("Family", ModelRowView.FAMILY),
                head("Size on disk", ModelRowView.SIZE), head("Memory to run", ModelRowView.MEMORY),
                head("Status", ModelRowView.STATUS));
        header.getStyleClass().add("model-header");

        VBox top = new VBox(10, controls, message, header);
        top.setPadding(new Insets(14, 16, 6, 16));
        setTop(top);
        rows.setId("model-rows");
        rows.getStyleClass().add("model-rows");
        ScrollPane scroll = new ScrollPane(rows);
        scroll.setFitToWidth(true);
        setCenter(scroll);
        vm.items().addListener((ListChangeListener<ModelItem>) c -> rebuild(vm));
        rebuild(vm);
    }

    private void rebuild(ModelManagerViewModel vm) {
        rows.getChildren().setAll(vm.items().stream().map(i -> new ModelRowView(i, vm)).toList());
    }

    private static Label head(String text, double width) {
        Label l = new Label(text);
        l.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        l.setMinWidth(width);
        l.setPrefWidth(width);
        return l;
    }

    private static void style(Label message, boolean bad) {
        message.getStyleClass().removeAll(Styles.DANGER, Styles.SUCCESS);
        message.getStyleClass().add(bad ? Styles.DANGER : Styles.SUCCESS);
    }
}
