package dev.parley.engine.backend;

import java.util.Locale;

/**
 * Which backend runs the model: the plain-Java reference, the Vector API one, the CUDA GPU, or {@link #AUTO}, a
 * request that {@link BackendChoice#resolve} turns into {@link #CUDA} when a GPU answers and {@link #VECTOR}
 * otherwise.
 */
public enum BackendKind {
    SCALAR, VECTOR, CUDA, AUTO;

    /**
     * Parses {@code "scalar"}, {@code "vector"}, {@code "cuda"}, {@code "auto"} or {@code "cpu"} (the vector
     * backend), in any case.
     *
     * @throws IllegalArgumentException naming the accepted values otherwise
     */
    public static BackendKind parse(String s) {
        if (s != null) {
            String v = s.strip();
            if (v.equalsIgnoreCase("cpu")) {
                return VECTOR;
            }
            for (BackendKind k : values()) {
                if (k.name().equalsIgnoreCase(v)) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("expected a backend of auto, cpu, cuda, scalar or vector but found " + s);
    }

    /** Whether this kind computes on the CPU (scalar or vector). */
    public boolean cpu() {
        return this == SCALAR || this == VECTOR;
    }

    /** The lower-case name, as {@link #parse} accepts it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
