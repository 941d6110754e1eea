package dev.parley.app.gui.smoke;

import dev.parley.app.gui.AppContext;
import dev.parley.app.gui.MainWindow;
import dev.parley.app.store.ParleyHome;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * The app as {@code parley gui} opens it (the user's Parley home, the real voice loop), which closes itself once the
 * window has shown its main scene and the model status has settled (or after {@link #LIMIT_S} seconds), reporting
 * what {@link SmokeCheck} found.
 */
public final class SmokeApp extends Application {
    static final int LIMIT_S = 60;
    /** The exit code for the launcher: JavaFX creates the Application itself, so the result cannot be returned. */
    static final AtomicInteger RESULT = new AtomicInteger(1);

    private AppContext context;

    @Override
    public void start(Stage stage) throws Exception {
        context = AppContext.open(ParleyHome.fromEnvironment());
        MainWindow window = MainWindow.show(context, stage);
        long start = System.nanoTime();
        Timeline poll = new Timeline();
        poll.getKeyFrames().add(new KeyFrame(Duration.millis(100), e -> {
            boolean settled = !window.mainViewModel().loadingProperty().get();
            boolean late = System.nanoTime() - start > LIMIT_S * 1_000_000_000L;
            if (!settled && !late) {
                return;
            }
            poll.stop();
            List<String> bad = new java.util.ArrayList<>(SmokeCheck.failures(window));
            if (!settled) {
                bad.add("expected the model status to settle within " + LIMIT_S + " s but it still says: "
                        + window.mainViewModel().modelStatusProperty().get());
            }
            System.out.println("window: " + (int) window.scene().getWidth() + "x" + (int) window.scene().getHeight()
                    + ", model status: " + window.mainViewModel().modelStatusProperty().get());
            bad.forEach(b -> System.out.println("FAILED: " + b));
            RESULT.set(bad.isEmpty() ? 0 : 1);
            window.dispose();
            stage.hide();
            Platform.exit();
        }));
        poll.setCycleCount(Timeline.INDEFINITE);
        poll.play();
    }

    @Override
    public void stop() {
        if (context != null) {
            context.close();
        }
    }

    /** Runs the smoke test and returns its exit code: 0 when the window showed what it should. */
    public static int run() {
        RESULT.set(1);
        Application.launch(SmokeApp.class);
        return RESULT.get();
    }
}
