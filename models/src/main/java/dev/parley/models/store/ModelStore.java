package dev.parley.models.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.parley.models.catalog.CatalogEntry;
import dev.parley.models.download.ZipUnpacker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The one folder where Parley keeps downloaded models: {@code models/} (GGUF files), {@code asr/} (unpacked Vosk
 * models), {@code vad/} (voice-activity models), {@code voices/} and {@code index.json} (installed items with their checksums). Its location is, in order:
 * an explicit path, {@code $PARLEY_HOME}, {@code $XDG_CACHE_HOME/parley}, {@code ~/.cache/parley}.
 */
public final class ModelStore {
    public static final String ENV_HOME = "PARLEY_HOME";
    private static final String INDEX = "index.json";

    private final Path root;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public ModelStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The store location for this environment ({@code env} is usually {@code System.getenv()}). */
    public static Path defaultRoot(Map<String, String> env, Path userHome) {
        String home = env.get(ENV_HOME);
        if (home != null && !home.isBlank()) {
            return Path.of(home);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "parley");
        }
        return userHome.resolve(".cache").resolve("parley");
    }

    /** The store at {@code explicit}, or at the default location when it is null. */
    public static ModelStore open(Path explicit) {
        return new ModelStore(explicit != null ? explicit
                : defaultRoot(System.getenv(), Path.of(System.getProperty("user.home"))));
    }

    public Path root() {
        return root;
    }

    public Path modelsDir() {
        return root.resolve("models");
    }

    public Path asrDir() {
        return root.resolve("asr");
    }

    public Path vadDir() {
        return root.resolve("vad");
    }

    public Path voicesDir() {
        return root.resolve("voices");
    }

    /** Creates the folders if needed. */
    public void createLayout() throws IOException {
        Files.createDirectories(modelsDir());
        Files.createDirectories(asrDir());
        Files.createDirectories(vadDir());
        Files.createDirectories(voicesDir());
    }

    /** Where an entry lives once installed: a GGUF file, an unpacked folder, or (bundled) nowhere in the store. */
    public Path pathFor(CatalogEntry entry) {
        return switch (entry.kind()) {
            case LLM -> modelsDir().resolve(entry.fileName());
            case ASR -> entry.archive() != null ? asrDir().resolve(entry.archive().topFolder())
                    : asrDir().resolve(entry.fileName());
            case TTS_VOICE -> voicesDir().resolve(entry.id());
            case VAD -> vadDir().resolve(entry.fileName());
        };
    }

    /** Bundled entries are always installed; others when their file or folder is in place. */
    public boolean isInstalled(CatalogEntry entry) {
        return entry.isBundled() || Files.exists(pathFor(entry));
    }

    /** The index, or an empty one when there is none yet. */
    public StoreIndex index() throws IOException {
        Path file = root.resolve(INDEX);
        if (!Files.exists(file)) {
            return StoreIndex.empty();
        }
        try {
            StoreIndex index = json.readValue(file.toFile(), StoreIndex.class);
            if (!StoreIndex.FORMAT.equals(index.format())) {
                throw new IOException(file + ": expected format '" + StoreIndex.FORMAT + "' but found '"
                        + index.format() + "'");
            }
            return index;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is damaged (" + e.getOriginalMessage() + "); delete it and Parley will "
                    + "list the models folder again", e);
        }
    }

    private void write(StoreIndex index) throws IOException {
        Files.createDirectories(root);
        Path tmp = Files.createTempFile(root, ".index-", ".json");
        try {
            json.writeValue(tmp.toFile(), index);
            Files.move(tmp, root.resolve(INDEX), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The index record of an entry. */
    public Optional<InstalledItem> installed(String id) throws IOException {
        return index().items().stream().filter(i -> i.id().equals(id)).findFirst();
    }

    /** The checksum recorded on the first download of an entry without a published one. */
    public Optional<String> recordedChecksum(String id) throws IOException {
        return Optional.ofNullable(index().recordedChecksums().get(id));
    }

    /** Adds or replaces an index record; {@code recordChecksum} also keeps its SHA-256 for later verification. */
    public synchronized void record(InstalledItem item, boolean recordChecksum) throws IOException {
        StoreIndex index = index();
        List<InstalledItem> items = new ArrayList<>(index.items().stream().filter(i -> !i.id().equals(item.id()))
                .toList());
        items.add(item);
        Map<String, String> checksums = new HashMap<>(index.recordedChecksums());
        if (recordChecksum && item.sha256() != null) {
            checksums.put(item.id(), item.sha256());
        }
        write(new StoreIndex(StoreIndex.FORMAT, items, checksums));
    }

    /**
     * Removes an installed entry: its file or folder, a leftover part file, its index record (a checksum recorded
     * on first download stays). Returns whether anything was removed.
     */
    public synchronized boolean remove(CatalogEntry entry) throws IOException {
        if (entry.isBundled()) {
            throw new IllegalArgumentException(entry.id() + " ships with Parley and cannot be removed");
        }
        Path path = pathFor(entry);
        boolean removed = Files.exists(path);
        ZipUnpacker.deleteTree(path);
        if (entry.fileName() != null) {
            Path dir = switch (entry.kind()) {
                case LLM -> modelsDir();
                case VAD -> vadDir();
                default -> asrDir();
            };
            removed |= Files.deleteIfExists(dir.resolve(entry.fileName() + ".part"));
            if (entry.archive() != null) {
                removed |= Files.deleteIfExists(dir.resolve(entry.fileName()));
            }
        }
        StoreIndex index = index();
        if (index.items().stream().anyMatch(i -> i.id().equals(entry.id()))) {
            write(new StoreIndex(StoreIndex.FORMAT,
                    index.items().stream().filter(i -> !i.id().equals(entry.id())).toList(),
                    index.recordedChecksums()));
            removed = true;
        }
        return removed;
    }

    /** Every complete GGUF file in {@code models/}, with its metadata read from the file, sorted by file name. */
    public List<InstalledModel> installedModels() throws IOException {
        if (!Files.isDirectory(modelsDir())) {
            return List.of();
        }
        StoreIndex index = index();
        List<Path> files;
        try (Stream<Path> s = Files.list(modelsDir())) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".gguf") && Files.isRegularFile(p)).sorted()
                    .toList();
        }
        List<InstalledModel> out = new ArrayList<>();
        for (Path f : files) {
            String rel = root.relativize(f).toString();
            Optional<InstalledItem> item = index.items().stream().filter(i -> i.path().equals(rel)).findFirst();
            try {
                out.add(new InstalledModel(f, ModelInfo.read(f), null, item));
            } catch (IOException | RuntimeException e) {
                out.add(new InstalledModel(f, null, e.getMessage(), item));
            }
        }
        return out;
    }
}
