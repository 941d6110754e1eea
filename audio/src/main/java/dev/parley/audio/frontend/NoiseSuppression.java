package dev.parley.audio.frontend;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How hard the front end's noise suppressor works (WebRTC's levels), or off. */
public enum NoiseSuppression {
    OFF, LOW, MODERATE, HIGH, VERY_HIGH;

    /** The name used on the command line and in settings: off, low, moderate, high, very-high. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses a {@link #label()} (case-insensitive, '_' or '-'). */
    public static NoiseSuppression parse(String text) {
        if (text != null) {
            String t = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
            for (NoiseSuppression n : values()) {
                if (n.name().equals(t)) {
                    return n;
                }
            }
        }
        throw new IllegalArgumentException("expected a noise suppression level of "
                + Arrays.stream(values()).map(NoiseSuppression::label).collect(Collectors.joining(", "))
                + " but found '" + text + "'");
    }
}
