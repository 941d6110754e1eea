package dev.parley.audio.vad;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which voice-activity detector the voice loop asks for: the energy one, or the neural Silero one. */
public enum VadChoice {
    /** {@link EnergyVad}: levels in dBFS; no model, never fails; fooled by noise and echo. */
    ENERGY,
    /** {@link SileroVad}: the Silero VAD v5 model; falls back to {@link #ENERGY} when it cannot run. */
    SILERO;

    /** The name in settings and options: "energy" or "silero". */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code energy} or {@code silero} (any case); throws with the accepted names otherwise. */
    public static VadChoice parse(String name) {
        for (VadChoice c : values()) {
            if (c.id().equalsIgnoreCase(name == null ? "" : name.strip())) {
                return c;
            }
        }
        throw new IllegalArgumentException("expected a VAD of " + Arrays.stream(values()).map(VadChoice::id)
                .collect(Collectors.joining(" or ")) + " but found '" + name + "'");
    }
}
