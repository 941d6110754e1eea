package dev.parley.app.cli;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code parley} without a command runs: the window when there is a screen to open it on (on Linux and
 * other X11/Wayland systems {@code DISPLAY} or {@code WAYLAND_DISPLAY} set; always on Windows and macOS),
 * otherwise the terminal chat, with a one-line notice saying why.
 *
 * @param command the subcommand to run ({@code gui} or {@code chat})
 * @param notice  the line to print first, if any
 */
public record DefaultCommand(String command, Optional<String> notice) {
    /** The notice printed when the terminal chat starts because there is no display. */
    public static final String NO_DISPLAY = "parley: no display (DISPLAY and WAYLAND_DISPLAY are unset): "
            + "starting the terminal chat (parley gui opens the window on a desktop)";

    /** The choice for this process's environment and operating system. */
    public static DefaultCommand forThisMachine() {
        return choose(System.getenv(), System.getProperty("os.name", ""));
    }

    /** The choice for {@code env} on the operating system named {@code osName} (Java's {@code os.name}). */
    public static DefaultCommand choose(Map<String, String> env, String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows") || os.startsWith("mac")) {
            return new DefaultCommand("gui", Optional.empty());
        }
        if (set(env.get("DISPLAY")) || set(env.get("WAYLAND_DISPLAY"))) {
            return new DefaultCommand("gui", Optional.empty());
        }
        return new DefaultCommand("chat", Optional.of(NO_DISPLAY));
    }

    private static boolean set(String value) {
        return value != null && !value.isBlank();
    }
}
