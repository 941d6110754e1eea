package dev.parley.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which command {@code parley} without one runs, by display and operating system. */
class DefaultCommandTest {

    @Test
    void linuxWithAnX11OrWaylandDisplayOpensTheWindow() {
        assertEquals(new DefaultCommand("gui", Optional.empty()), DefaultCommand.choose(Map.of("DISPLAY", ":0"), "Linux"));
        assertEquals("gui", DefaultCommand.choose(Map.of("WAYLAND_DISPLAY", "wayland-0"), "Linux").command());
    }

    @Test
    void linuxWithoutADisplayStartsTheTerminalChatAndSaysWhyInOneLine() {
        for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("DISPLAY", ""),
                Map.of("DISPLAY", " ", "WAYLAND_DISPLAY", ""))) {
            DefaultCommand c = DefaultCommand.choose(env, "Linux");
            assertEquals("chat", c.command(), env.toString());
            assertTrue(c.notice().isPresent() && c.notice().get().lines().count() == 1, c.toString());
            assertTrue(c.notice().get().contains("no display"), c.toString());
        }
    }

    @Test
    void windowsAndMacAlwaysOpenTheWindow() {
        assertEquals("gui", DefaultCommand.choose(Map.of(), "Windows 11").command());
        assertEquals("gui", DefaultCommand.choose(Map.of(), "Mac OS X").command());
    }
}
