package dev.parley.audio.room;

import java.util.Locale;

/**
 * How a reverberation time becomes one wall absorption coefficient for every surface of a shoebox
 * room. Sabine: {@code T = 0.161 V / (S a)}; Eyring: {@code T = 0.161 V / (-S ln(1 - a))}. Eyring's
 * is the one that matches the image-source method's decay (both count a reflection every mean free
 * path and lose {@code 1 - a} of the energy at each), Sabine's overestimates it for absorbent rooms.
 */
public enum Absorption {
    SABINE, EYRING;

    private static final double SABINE_CONSTANT = 0.161;   // 24 ln(10) / c, s/m at c = 343 m/s

    /** The energy absorption coefficient (0..1) of every wall for a reverberation time {@code rt60} seconds. */
    public double coefficient(Shoebox room, double rt60) {
        if (!(rt60 > 0)) {
            throw new IllegalArgumentException("expected a positive RT60 but found " + rt60);
        }
        double x = SABINE_CONSTANT * room.volume() / (room.surface() * rt60);
        double a = switch (this) {
            case SABINE -> x;
            case EYRING -> 1 - Math.exp(-x);
        };
        if (a >= 1) {
            throw new IllegalArgumentException("an RT60 of " + rt60 + " s is too short for a " + room.width() + " x "
                    + room.depth() + " x " + room.height() + " m room: expected at least "
                    + String.format(Locale.ROOT, "%.3f", SABINE_CONSTANT * room.volume() / room.surface()) + " s");
        }
        return a;
    }
}
