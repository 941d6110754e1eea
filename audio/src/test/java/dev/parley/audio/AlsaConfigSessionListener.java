package dev.parley.audio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Writes the virtual sound device's ALSA configuration when a test session opens, before any test can touch Java
 * Sound: ALSA reads its configuration once per process, so a test that lists audio devices before the device test
 * has written {@code .asoundrc} would leave the whole JVM without the virtual device. Only acts when surefire has
 * pointed HOME at {@code target/alsa-home}. Registered in {@code META-INF/services}.
 */
public final class AlsaConfigSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String home = System.getenv("HOME");
        if (home != null && home.endsWith("alsa-home")) {
            try {
                VirtualSoundDevice.writeConfig(Path.of(home));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the virtual sound device's .asoundrc in " + home, e);
            }
        }
    }
}
