package dev.parley.app.gui.models;

import java.nio.file.Path;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The model manager's own window, opened from the main window's Models button (or by dropping a GGUF file on the
 * main window); it lists what is on disk afresh each time it is shown.
 */
public final class ModelManagerWindow {
    public static final double WIDTH = 1200;
    public static final double HEIGHT = 560;

    private final Window owner;
    private final ModelManagerViewModel vm;
    private Stage stage;

    public ModelManagerWindow(Window owner, ModelManagerViewModel vm) {
        this.owner = owner;
        this.vm = vm;
    }

    /**
     * The manager of the app's window: the context's catalog, model store and installer; "Use" applies the model
     * through {@code main} (which saves the settings and loads it in the background).
     */
    public static ModelManagerWindow forApp(Window owner, dev.parley.app.gui.AppContext context,
                                            dev.parley.app.gui.MainViewModel main) {
        java.util.concurrent.Executor background = r -> {
            Thread t = new Thread(r, "parley-models");
            t.setDaemon(true);
            t.start();
        };
        ModelManagerViewModel vm = new ModelManagerViewModel(context.catalog(), context.home().modelStore(),
                context.installer(), () -> main.settingsProperty().get(),
                (file, ctx, kv) -> main.apply(main.settingsProperty().get().withModel(file.toString(), ctx, kv)),
                javafx.application.Platform::runLater, background);
        main.settingsProperty().addListener((o, a, s) -> vm.markInUse());
        return new ModelManagerWindow(owner, vm);
    }

    /** Shows the window (building it the first time) and lists what is on disk. */
    public void show() {
        if (stage == null) {
            stage = new Stage();
            stage.initOwner(owner);
            stage.setTitle("Parley · Models");
            Scene scene = new Scene(new ModelManagerView(vm), WIDTH, HEIGHT);
            scene.getStylesheets().add(ModelManagerWindow.class.getResource(
                    "/dev/parley/app/gui/models/models.css").toExternalForm());
            FileDrop.attach(scene, vm::open);
            stage.setScene(scene);
        }
        vm.refresh();
        stage.show();
        stage.toFront();
    }

    /** Opens {@code file} as a model (after a drop on the main window): shows the manager with the outcome. */
    public void open(Path file) {
        show();
        vm.open(file);
    }

    public ModelManagerViewModel viewModel() {
        return vm;
    }

    /** The window's scene, null until first shown. */
    public Scene scene() {
        return stage == null ? null : stage.getScene();
    }

    public void close() {
        if (stage != null) {
            stage.hide();
        }
    }
}
