package dev.parley.app.gui.models;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.scene.Scene;
import javafx.scene.input.DragEvent;
import javafx.scene.input.TransferMode;

/** Lets the user drop a file on a window: it is handed to {@code open} (the model manager checks it). */
public final class FileDrop {
    private FileDrop() {
    }

    /** Accepts dragged files over {@code scene} and passes the first one dropped to {@code open}. */
    public static void attach(Scene scene, Consumer<Path> open) {
        scene.addEventHandler(DragEvent.DRAG_OVER, e -> {
            if (e.getDragboard() != null && e.getDragboard().hasFiles()) {
                e.acceptTransferModes(TransferMode.COPY, TransferMode.LINK);
                e.consume();
            }
        });
        scene.addEventHandler(DragEvent.DRAG_DROPPED, e -> {
            List<File> files = e.getDragboard() == null ? List.of() : e.getDragboard().getFiles();
            if (files != null && !files.isEmpty()) {
                open.accept(files.getFirst().toPath());
                e.setDropCompleted(true);
                e.consume();
            }
        });
    }
}
