package dev.parley.engine.model;

/** Storage of the key/value cache. */
public enum KvFormat {
    /** 4 bytes per value. */
    F32,
    /** IEEE half, 2 bytes per value (round to nearest even). */
    F16,
    /**
     * Signed bytes with one float scale per (layer, position, KV head) for keys and for values:
     * {@code headSize + 4} bytes per head instead of {@code 4 * headSize}.
     */
    INT8
}
