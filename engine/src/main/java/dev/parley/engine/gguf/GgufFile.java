package dev.parley.engine.gguf;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A GGUF file (versions 2 and 3), memory-mapped: the header is parsed once, tensor data stays in
 * the mapping and is handed out as slices (no copy onto the heap). Closing the file unmaps it; the
 * slices must not be used after that.
 *
 * <p>Layout (from the GGUF spec): {@code magic "GGUF", uint32 version, uint64 tensor_count,
 * uint64 metadata_kv_count, metadata_kv[], tensor_info[], padding to general.alignment,
 * tensor data}.
 */
public final class GgufFile implements AutoCloseable {

    public static final String ALIGNMENT_KEY = "general.alignment";
    public static final int DEFAULT_ALIGNMENT = 32;

    private final Path path;
    private final int version;
    private final Map<String, GgufMetadataValue> metadata;
    private final Map<String, GgufTensorInfo> tensors;
    private final int alignment;
    private final long dataOffset;
    private final Arena arena;
    private final MemorySegment mapping;

    private GgufFile(Path path, GgufHeader header, Arena arena, MemorySegment mapping) {
        this.path = path;
        this.version = header.version();
        this.metadata = Collections.unmodifiableMap(header.metadata());
        Map<String, GgufTensorInfo> byName = new LinkedHashMap<>();
        for (GgufTensorInfo t : header.tensors()) {
            byName.put(t.name(), t);
        }
        this.tensors = Collections.unmodifiableMap(byName);
        this.alignment = header.alignment();
        this.dataOffset = header.dataOffset();
        this.arena = arena;
        this.mapping = mapping;
    }

    /**
     * Opens and parses {@code path}.
     *
     * @throws GgufException when the file is not a valid GGUF file (the message says why)
     * @throws IOException   when it cannot be read
     */
    public static GgufFile open(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new NoSuchFileException(path.toString(), null, "expected a GGUF model file but found no such file");
        }
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment mapping = size == 0 ? MemorySegment.NULL.reinterpret(0)
                    : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            GgufHeader header = GgufHeader.parse(mapping, path.getFileName().toString());
            return new GgufFile(path, header, arena, mapping);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public Path path() { return path; }

    public int version() { return version; }

    /** All metadata in file order. */
    public Map<String, GgufMetadataValue> metadata() { return metadata; }

    /** All tensor infos in file order. */
    public List<GgufTensorInfo> tensors() { return List.copyOf(tensors.values()); }

    public int alignment() { return alignment; }

    /** Offset of the tensor data section from the start of the file. */
    public long dataOffset() { return dataOffset; }

    public long fileSize() { return mapping.byteSize(); }

    public Optional<GgufTensorInfo> findTensor(String name) {
        return Optional.ofNullable(tensors.get(name));
    }

    /** The tensor called {@code name}; an error names the file when it is missing. */
    public GgufTensorInfo tensor(String name) throws GgufException {
        GgufTensorInfo t = tensors.get(name);
        if (t == null) {
            throw new GgufException(path.getFileName() + ": expected a tensor named '" + name + "' but found none");
        }
        return t;
    }

    /** The tensor's bytes, a slice of the mapping. */
    public MemorySegment tensorData(GgufTensorInfo t) {
        return mapping.asSlice(dataOffset + t.offset(), t.byteSize());
    }

    public Optional<GgufMetadataValue> find(String key) {
        return Optional.ofNullable(metadata.get(key));
    }

    public boolean has(String key) {
        return metadata.containsKey(key);
    }

    public GgufMetadataValue get(String key) throws GgufException {
        GgufMetadataValue v = metadata.get(key);
        if (v == null) {
            throw new GgufException(path.getFileName() + ": expected metadata key '" + key + "' but found none");
        }
        return v;
    }

    public String getString(String key) throws GgufException {
        return expect(key, String.class, "a string");
    }

    public String getString(String key, String fallback) throws GgufException {
        return has(key) ? getString(key) : fallback;
    }

    public long getLong(String key) throws GgufException {
        GgufMetadataValue v = get(key);
        try {
            return v.asLong();
        } catch (IllegalStateException e) {
            throw new GgufException(path.getFileName() + ": expected an integer for '" + key + "' but found " + v.describe());
        }
    }

    public long getLong(String key, long fallback) throws GgufException {
        return has(key) ? getLong(key) : fallback;
    }

    public int getInt(String key) throws GgufException {
        long v = getLong(key);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new GgufException(path.getFileName() + ": expected '" + key + "' to fit in an int but found " + v);
        }
        return (int) v;
    }

    public int getInt(String key, int fallback) throws GgufException {
        return has(key) ? getInt(key) : fallback;
    }

    public double getDouble(String key) throws GgufException {
        GgufMetadataValue v = get(key);
        try {
            return v.asDouble();
        } catch (IllegalStateException e) {
            throw new GgufException(path.getFileName() + ": expected a number for '" + key + "' but found " + v.describe());
        }
    }

    public double getDouble(String key, double fallback) throws GgufException {
        return has(key) ? getDouble(key) : fallback;
    }

    public boolean getBoolean(String key, boolean fallback) throws GgufException {
        return has(key) ? expect(key, Boolean.class, "a bool") : fallback;
    }

    public String[] getStrings(String key) throws GgufException {
        return expect(key, String[].class, "an array of strings");
    }

    public float[] getFloats(String key) throws GgufException {
        return expect(key, float[].class, "an array of float32");
    }

    /** An integer array of any width, widened to int (values beyond int raise an error). */
    public int[] getInts(String key) throws GgufException {
        GgufMetadataValue v = get(key);
        return switch (v.value()) {
            case int[] a -> a;
            case short[] a -> { int[] r = new int[a.length]; for (int i = 0; i < a.length; i++) r[i] = a[i]; yield r; }
            case byte[] a -> { int[] r = new int[a.length]; for (int i = 0; i < a.length; i++) r[i] = a[i]; yield r; }
            case long[] a -> {
                int[] r = new int[a.length];
                for (int i = 0; i < a.length; i++) {
                    if (a[i] != (int) a[i]) {
                        throw new GgufException(path.getFileName() + ": expected '" + key + "' values to fit in an int but found " + a[i]);
                    }
                    r[i] = (int) a[i];
                }
                yield r;
            }
            default -> throw new GgufException(path.getFileName() + ": expected an integer array for '" + key
                    + "' but found " + v.describe());
        };
    }

    private <T> T expect(String key, Class<T> type, String what) throws GgufException {
        GgufMetadataValue v = get(key);
        if (!type.isInstance(v.value())) {
            throw new GgufException(path.getFileName() + ": expected " + what + " for '" + key + "' but found " + v.describe());
        }
        return type.cast(v.value());
    }

    @Override
    public void close() {
        arena.close();
    }

    @Override
    public String toString() {
        return "GGUF v" + version + " " + path + " (" + metadata.size() + " keys, " + tensors.size() + " tensors)";
    }
}
