package dev.parley.engine.gguf;

/** Metadata value types of the GGUF spec ({@code enum gguf_metadata_value_type}). */
public enum GgufValueType {
    UINT8, INT8, UINT16, INT16, UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY, UINT64, INT64, FLOAT64;

    /** The type with GGUF id {@code id} (its ordinal), or null when unknown. */
    public static GgufValueType byId(int id) {
        return id >= 0 && id < values().length ? values()[id] : null;
    }

    public int id() { return ordinal(); }
}
