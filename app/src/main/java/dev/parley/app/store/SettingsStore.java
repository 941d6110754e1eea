package dev.parley.app.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads and writes {@link AppSettings} as a JSON file. Missing fields take their defaults (so a file
 * from an older Parley still loads), unknown ones are ignored, and a value that fails validation is
 * reported with the file's name. Saving writes a temporary file and moves it over the old one, so a
 * crash never leaves half a file.
 */
public final class SettingsStore {
    private final Path file;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public SettingsStore(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The stored settings, or the defaults when there is no file yet. */
    public AppSettings load() throws IOException {
        if (!Files.exists(file)) {
            return AppSettings.defaults();
        }
        JsonNode stored;
        try {
            stored = json.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException("expected a JSON settings file at " + file + " but it does not parse: "
                    + e.getMessage(), e);
        }
        if (stored == null || !stored.isObject()) {
            throw new IOException("expected a JSON object in " + file + " but found "
                    + (stored == null ? "nothing" : stored.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        ObjectNode merged = json.valueToTree(AppSettings.defaults());
        for (Iterator<Map.Entry<String, JsonNode>> it = stored.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (merged.has(field.getKey())) {
                merged.set(field.getKey(), field.getValue());
            }
        }
        try {
            return json.treeToValue(merged, AppSettings.class);
        } catch (IOException e) {
            Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
            throw new IOException("invalid settings in " + file + ": " + cause.getMessage(), e);
        }
    }

    /** Writes {@code settings}, replacing the file atomically. */
    public void save(AppSettings settings) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "settings", ".json.tmp");
        try {
            json.writeValue(tmp.toFile(), settings);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
