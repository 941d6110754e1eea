package dev.parley.app.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import dev.parley.models.store.ModelStore;

/**
 * The folder where Parley keeps its conversations database and settings, the same folder as the
 * model store's: {@code PARLEY_HOME} when set, else {@code $XDG_CACHE_HOME/parley}, else
 * {@code ~/.cache/parley}, or any folder passed in (tests use a temporary one).
 */
public record ParleyHome(Path dir) {

    public ParleyHome {
        Objects.requireNonNull(dir, "dir");
        dir = dir.toAbsolutePath().normalize();
    }

    /** The home for the environment {@code env} and the user folder {@code userHome} (as the model store finds it). */
    public static ParleyHome resolve(Map<String, String> env, String userHome) {
        return new ParleyHome(ModelStore.defaultRoot(env, Path.of(userHome)));
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

    /** The model store in this home. */
    public ModelStore modelStore() {
        return new ModelStore(dir);
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
