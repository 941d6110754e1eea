package dev.parley.app.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The folder where Parley keeps its conversations database and settings: {@code PARLEY_HOME} when
 * set, else {@code ~/.cache/parley}, or any folder passed in (tests use a temporary one).
 */
public record ParleyHome(Path dir) {

    public ParleyHome {
        Objects.requireNonNull(dir, "dir");
        dir = dir.toAbsolutePath().normalize();
    }

    /** The home named by {@code PARLEY_HOME} in {@code env}, else {@code ~/.cache/parley} under {@code userHome}. */
    public static ParleyHome resolve(Map<String, String> env, String userHome) {
        String configured = env.get("PARLEY_HOME");
        if (configured != null && !configured.isBlank()) {
            return new ParleyHome(Path.of(configured));
        }
        return new ParleyHome(Path.of(userHome, ".cache", "parley"));
    }

    /** The home of this process (environment and {@code user.home}). */
    public static ParleyHome fromEnvironment() {
        return resolve(System.getenv(), System.getProperty("user.home"));
    }

    /** The conversations database. */
    public Path database() {
        return dir.resolve("conversations.db");
    }

    /** The settings file. */
    public Path settings() {
        return dir.resolve("settings.json");
    }

    /** Creates the folder when it is missing and returns this home. */
    public ParleyHome create() throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOException("expected the Parley home " + dir + " to be a folder but found a file");
        }
        Files.createDirectories(dir);
        return this;
    }
}
