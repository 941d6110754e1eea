package dev.parley.app.gui;

import dev.parley.app.store.AppSettings;
import dev.parley.app.store.ParleyHome;
import dev.parley.app.store.SettingsStore;
import dev.parley.app.store.Theme;
import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Opens the real app (real engine, real SQLite file, real settings file) in the TestFX primary
 * stage, and "restarts" it: closes everything and opens the same home again.
 */
final class GuiHarness {
    static final long TIMEOUT_S = 60;

    AppContext context;
    MainWindow window;
    final ParleyHome home;
    /** The catalog of the first-run download; null for the built-in one. */
    dev.parley.models.catalog.ModelCatalog catalog;
    /** With a catalog: the voice loop to use (null: none, "not in this test"). */
    java.util.function.Function<ParleyHome, dev.parley.app.gui.voice.VoiceControl> voice;
    /** Runs on the opened context before the window is built (and its voice loop started); null for nothing. */
    java.util.function.Consumer<AppContext> beforeWindow;

    GuiHarness(Path home) {
        this.home = new ParleyHome(home);
    }

    /** Writes first-start settings that load {@code model} greedily with short replies. */
    static AppSettings settingsFor(Path model, int contextSize, int maxTokens) {
        return new AppSettings(model.toString(), BackendKind.VECTOR, 1, contextSize, 0.0, 0.95, maxTokens,
                "You are Parley.", "", 1.0, "", "", 800, "Ctrl+Space", Theme.LIGHT,
                dev.parley.engine.model.WeightFormat.STORED, dev.parley.engine.model.KvFormat.F32);
    }

    /** As {@link #settingsFor(Path, int, int)} with the Vosk model folder {@code vosk}. */
    static AppSettings settingsFor(Path model, int contextSize, int maxTokens, Path vosk) {
        AppSettings s = settingsFor(model, contextSize, maxTokens);
        return new AppSettings(s.modelPath(), s.backend(), s.threads(), s.contextSize(), s.temperature(), s.topP(),
                s.maxTokens(), s.systemPrompt(), s.voice(), s.speakingRate(), s.inputDevice(), s.outputDevice(),
                s.endOfTurnSilenceMs(), s.pushToTalkKey(), s.theme(), s.weights(), s.kvCache(), s.remoteUrl(),
                s.remoteKey(), s.remoteModel(), vosk.toString());
    }

    void writeSettings(AppSettings s) throws Exception {
        new SettingsStore(home.settings()).save(s);
    }

    /** Opens the app without waiting for a model. */
    GuiHarness open() throws Exception {
        FxToolkit.registerPrimaryStage();
        context = catalog == null ? AppContext.open(home)
                : AppContext.open(home, voice != null ? voice.apply(home)
                        : new dev.parley.app.gui.voice.UnavailableVoice("not in this test"), catalog,
                        new dev.parley.models.download.Downloader());
        if (beforeWindow != null) {
            beforeWindow.accept(context);
        }
        AtomicReference<MainWindow> w = new AtomicReference<>();
        FxToolkit.setupStage(stage -> w.set(MainWindow.show(context, stage)));
        window = w.get();
        return this;
    }

    /** Opens the app and waits until the model is ready. */
    GuiHarness start() throws Exception {
        open();
        waitFor(() -> window.mainViewModel().readyProperty().get()
                || window.mainViewModel().modelStatusProperty().get().startsWith("Could not"));
        if (!window.mainViewModel().readyProperty().get()) {
            throw new AssertionError(window.mainViewModel().modelStatusProperty().get());
        }
        return this;
    }

    /** Closes the window and everything it opened, as quitting the app does. */
    void stop() throws Exception {
        if (window != null) {
            onFx(() -> {
                window.dispose();
                window.stage().hide();
                return null;
            });
        }
        if (context != null) {
            context.close();
        }
        window = null;
        context = null;
    }

    /**
     * Fires the button with {@code id} in the main window on the FX thread, as a click does. The robot's
     * window-wide lookup can trip over a tooltip popup that is opening (seen as a NullPointerException
     * inside TestFX), so buttons with tooltips are pressed this way.
     */
    void press(String id) throws Exception {
        onFx(() -> {
            javafx.scene.Node node = window.scene().lookup("#" + id);
            if (!(node instanceof javafx.scene.control.ButtonBase button)) {
                throw new AssertionError("expected a button #" + id + " in the window but found " + node);
            }
            if (!button.isVisible() || button.isDisabled()) {
                throw new AssertionError("expected #" + id + " to be visible and enabled");
            }
            button.fire();
            return null;
        });
    }

    /** Renders the window with {@code scene.snapshot} and writes it to {@code file} as a PNG. */
    Path snapshot(Path file) throws Exception {
        javafx.scene.image.WritableImage image = onFx(() -> {
            window.scene().getRoot().applyCss();
            window.scene().getRoot().layout();
            return window.scene().snapshot(null);
        });
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        java.awt.image.BufferedImage out = new java.awt.image.BufferedImage(w, h,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        javafx.scene.image.PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        javax.imageio.ImageIO.write(out, "png", file.toFile());
        return file;
    }

    GuiHarness restart() throws Exception {
        stop();
        return start();
    }

    static void waitFor(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(TIMEOUT_S, TimeUnit.SECONDS, () -> onFx(condition));
    }

    static <T> T onFx(Callable<T> work) throws Exception {
        if (Platform.isFxApplicationThread()) {
            return work.call();
        }
        return WaitForAsyncUtils.asyncFx(work).get(TIMEOUT_S, TimeUnit.SECONDS);
    }
}
