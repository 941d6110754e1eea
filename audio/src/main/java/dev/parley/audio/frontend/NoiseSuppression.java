package dev.parley.audio.frontend;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How hard the front end's noise suppressor works (WebRTC's levels), off, or {@link #AUTO}: at {@link #HIGH} where the
 * room's noise is steady, off where it is not ({@link SteadyNoise}).
 */
public enum NoiseSuppression {
    OFF,
    /**
     * {@link #HIGH} while the room's noise is steady (a fan, air conditioning), off otherwise. Measured on the offline
     * sweep (five rooms, fan at SNR 10 and 7, "goodbye" asked after 15 s of it): off, the recognizer made "five" of it
     * every time and 4 of the 10 questions were never heard at all (the Silero VAD's probability stayed under its
     * start); at high, 10 of 10 were right. In a bed of voices the suppressor smears the user's words: over babble,
     * moderate took the barge-ins heard exactly from 18 to 7 of 50 (docs/audio.md).
     */
    AUTO,
    LOW, MODERATE, HIGH, VERY_HIGH;

    /** The name used on the command line and in settings: off, auto, low, moderate, high, very-high. */
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
