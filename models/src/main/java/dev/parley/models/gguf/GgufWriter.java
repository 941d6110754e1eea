package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.gguf.GgufValueType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Describes a GGUF file (version 3 by default, or 2) and writes it: declare the metadata and the
 * tensors (name, ggml-order dims, type), then {@link #open(Path)} a {@link GgufTensorSink} and
 * stream each tensor's bytes in declaration order. Nothing but the header is held in memory.
 *
 * <p>Layout written: {@code "GGUF", uint32 version, uint64 tensor count, uint64 metadata count,
 * metadata (in insertion order), tensor infos, zero padding to the alignment, tensor data}, each
 * tensor starting at a multiple of the alignment and padded with zeros after it (as ggml does),
 * so the file size is a multiple of the alignment too; a file without tensors has no padding.
 * Rewriting a file that ggml or gguf-py wrote reproduces it byte for byte. The alignment is {@code general.alignment}
 * when that key is set (see {@link #alignment(int)}), else 32.
 *
 * <p>Not thread-safe: build and write from one thread.
 */
public final class GgufWriter {

    private static final int MAX_DIMS = 4;

    private final int version;
    private final Map<String, GgufMetadataValue> metadata = new LinkedHashMap<>();
    private final List<GgufTensorInfo> tensors = new ArrayList<>();
    private final Set<String> tensorNames = new HashSet<>();
    private long nextOffset;

    /** A GGUF v3 writer. */
    public GgufWriter() {
        this(3);
    }

    /** A writer of GGUF {@code version} 2 or 3 (the two differ only in the version field). */
    public GgufWriter(int version) {
        if (version != 2 && version != 3) {
            throw new IllegalArgumentException("expected GGUF version 2 or 3 but found " + version);
        }
        this.version = version;
    }

    public int version() {
        return version;
    }

    /** Adds or replaces metadata {@code key}; the value must match its declared type. */
    public GgufWriter put(String key, GgufMetadataValue value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (!tensors.isEmpty() && key.equals(GgufFile.ALIGNMENT_KEY)) {
            throw new IllegalStateException("set " + GgufFile.ALIGNMENT_KEY + " before adding tensors: their offsets depend on it");
        }
        GgufMetadataEncoder.validate(key, value);
        if (key.equals(GgufFile.ALIGNMENT_KEY)) {
            checkAlignment(value);
        }
        metadata.put(key, value);
        return this;
    }

    /** Adds every entry of {@code values}, in its iteration order. */
    public GgufWriter putAll(Map<String, GgufMetadataValue> values) {
        values.forEach(this::put);
        return this;
    }

    /** Sets {@code general.alignment} (a uint32 power of two); call before adding tensors. */
    public GgufWriter alignment(int alignment) {
        return put(GgufFile.ALIGNMENT_KEY, GgufMetadataValue.ofUint32(alignment));
    }

    /** The alignment of tensor data: {@code general.alignment} or 32. */
    public int alignment() {
        GgufMetadataValue a = metadata.get(GgufFile.ALIGNMENT_KEY);
        return a == null ? GgufFile.DEFAULT_ALIGNMENT : (int) a.asLong();
    }

    /** The metadata so far, in file order (read-only view). */
    public Map<String, GgufMetadataValue> metadata() {
        return Collections.unmodifiableMap(metadata);
    }

    /**
     * Declares the next tensor.
     *
     * @param dims ggml order: {@code dims[0]} is the contiguous (row) length; 1 to 4 dims, each >= 1,
     *             {@code dims[0]} a multiple of the type's block size
     */
    public GgufWriter addTensor(String name, long[] dims, GgmlType type) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (tensorNames.contains(name)) {
            throw new IllegalArgumentException("expected unique tensor names but '" + name + "' was added twice");
        }
        if (dims.length < 1 || dims.length > MAX_DIMS) {
            throw new IllegalArgumentException("tensor '" + name + "': expected 1 to 4 dimensions but found " + dims.length);
        }
        long count = 1;
        for (long d : dims) {
            if (d < 1) {
                throw new IllegalArgumentException("tensor '" + name + "': expected dimensions >= 1 but found " + d);
            }
            count = Math.multiplyExact(count, d);
        }
        if (dims[0] % type.blockSize() != 0) {
            throw new IllegalArgumentException("tensor '" + name + "': expected dims[0] to be a multiple of "
                    + type.blockSize() + " for " + type + " but found " + dims[0]);
        }
        tensorNames.add(name);
        tensors.add(new GgufTensorInfo(name, dims, type, nextOffset));
        nextOffset = align(nextOffset + type.byteSizeFor(count), alignment());
        return this;
    }

    /** The declared tensors with the data offsets they will have. */
    public List<GgufTensorInfo> tensors() {
        return List.copyOf(tensors);
    }

    /** The header: everything before the tensor data, padding included. */
    byte[] header() {
        LeBuffer b = new LeBuffer();
        b.u32(0x46554747); // "GGUF"
        b.u32(version);
        b.u64(tensors.size());
        b.u64(metadata.size());
        for (Map.Entry<String, GgufMetadataValue> e : metadata.entrySet()) {
            b.string(e.getKey());
            b.u32(e.getValue().type().id());
            GgufMetadataEncoder.write(b, e.getValue());
        }
        for (GgufTensorInfo t : tensors) {
            b.string(t.name());
            long[] dims = t.dims();
            b.u32(dims.length);
            for (long d : dims) {
                b.u64(d);
            }
            b.u32(t.type().id());
            b.u64(t.offset());
        }
        if (!tensors.isEmpty()) { // like ggml, a file without tensors (a vocabulary) ends right after its header
            b.zeros((int) (align(b.size(), alignment()) - b.size()));
        }
        return Arrays.copyOf(b.array(), b.size());
    }

    /**
     * Starts writing to a temporary file beside {@code target}: the header is written now, the
     * tensor data through the returned sink, and {@link GgufTensorSink#commit()} renames the
     * finished file onto {@code target} atomically (closing without commit deletes it).
     */
    public GgufTensorSink open(Path target) throws IOException {
        return new GgufTensorSink(target, header(), tensors, alignment());
    }

    static long align(long offset, int alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }

    private static void checkAlignment(GgufMetadataValue v) {
        if (v.type() != GgufValueType.UINT32) {
            throw new IllegalArgumentException("expected " + GgufFile.ALIGNMENT_KEY + " to be a UINT32 but found " + v.describe());
        }
        long a = v.asLong();
        if (a < 1 || a > 1 << 20 || Long.bitCount(a) != 1) {
            throw new IllegalArgumentException("expected " + GgufFile.ALIGNMENT_KEY + " to be a power of two up to 2^20 but found " + a);
        }
    }
}
