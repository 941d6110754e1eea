package dev.parley.app.gui;

import javafx.application.Application;

/**
 * Starts the desktop app from the class path (a main class that does not extend Application, as
 * JavaFX requires there); {@code ./mvnw -pl app javafx:run} and {@code parley gui} both land here.
 */
public final class GuiLauncher {
    private GuiLauncher() {
    }

    public static void main(String[] args) {
        Application.launch(ParleyApp.class, args);
    }
}
