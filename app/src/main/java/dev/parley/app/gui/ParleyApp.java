package dev.parley.app.gui;

import dev.parley.app.store.ParleyHome;
import javafx.application.Application;
import javafx.scene.control.Alert;
import javafx.stage.Stage;

/** The JavaFX application: opens the Parley home of this user and shows the main window. */
public final class ParleyApp extends Application {
    private AppContext context;

    @Override
    public void start(Stage stage) {
        try {
            context = AppContext.open(ParleyHome.fromEnvironment());
        } catch (Exception e) {
            new Alert(Alert.AlertType.ERROR, "Parley could not start: " + e.getMessage()).showAndWait();
            javafx.application.Platform.exit();
            return;
        }
        MainWindow.show(context, stage);
    }

    @Override
    public void stop() {
        if (context != null) {
            context.close();
        }
    }
}
