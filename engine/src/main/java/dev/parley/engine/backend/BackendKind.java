package dev.parley.engine.backend;

import java.util.Locale;

/** Which {@link Backend} computes the matrix products: the plain-Java reference or the Vector API one. */
public enum BackendKind {
    SCALAR, VECTOR;

    /**
     * Parses {@code "scalar"} or {@code "vector"} (any case).
     *
     * @throws IllegalArgumentException naming the accepted values otherwise
     */
    public static BackendKind parse(String s) {
        if (s != null) {
            for (BackendKind k : values()) {
                if (k.name().equalsIgnoreCase(s.strip())) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("expected a backend of scalar or vector but found " + s);
    }

    /** The lower-case name, as {@link #parse} accepts it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
