package dev.parley.audio.frontend;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which echo canceller the front end runs. {@link #LINEAR}, the default: Parley's own adaptive filter with a gentle
 * residual suppressor ({@link LinearEchoCanceller}), which keeps the user's voice whole under an echo as loud as it
 * or louder. {@link #AEC3}: WebRTC's AEC3, whose suppressor ducks the user with the echo at those levels
 * (docs/audio.md). {@link #OFF}: none, and the loop runs half-duplex.
 */
public enum EchoCanceller {
    LINEAR("on"), AEC3("aec3"), OFF("off");

    private final String label;

    EchoCanceller(String label) {
        this.label = label;
    }

    /** The name on the command line and in settings: on, aec3, off. */
    public String label() {
        return label;
    }

    /** Parses a {@link #label()} (case-insensitive; "linear" for "on" too). */
    public static EchoCanceller parse(String text) {
        if (text != null) {
            String t = text.strip().toLowerCase(Locale.ROOT);
            if (t.equals("linear")) {
                return LINEAR;
            }
            for (EchoCanceller e : values()) {
                if (e.label.equals(t)) {
                    return e;
                }
            }
        }
        throw new IllegalArgumentException("expected an echo canceller of "
                + Arrays.stream(values()).map(EchoCanceller::label).collect(Collectors.joining(", "))
                + " but found '" + text + "'");
    }
}
