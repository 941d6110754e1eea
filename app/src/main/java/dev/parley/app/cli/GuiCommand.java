package dev.parley.app.cli;

import dev.parley.app.gui.GuiLauncher;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code parley gui}: opens the desktop app and returns when its window is closed. */
@Command(name = "gui", mixinStandardHelpOptions = true,
        description = "Opens the desktop app (chat, voice, dashboards); settings and conversations live in "
                + "PARLEY_HOME (default ~/.cache/parley).")
final class GuiCommand implements Callable<Integer> {
    @picocli.CommandLine.Option(names = "--smoke-test", description = "Open the window, check that it shows its "
            + "main scene, close it; exit code 0 when it did (for installers and CI).")
    boolean smokeTest;

    @Override
    public Integer call() {
        try {
            if (smokeTest) {
                int code = dev.parley.app.gui.smoke.SmokeApp.run();
                System.out.println(code == 0 ? "smoke test passed" : "smoke test FAILED");
                return code;
            }
            GuiLauncher.main(new String[0]);
        } catch (UnsupportedOperationException e) {
            // JavaFX says "Unable to open DISPLAY" when there is no screen to open a window on.
            throw new UsageException("cannot open a window (" + e.getMessage() + "): run it on a desktop, "
                    + "or under Xvfb (xvfb-run ./parley gui)");
        }
        return 0;
    }
}
