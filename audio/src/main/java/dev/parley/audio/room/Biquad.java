package dev.parley.audio.room;

/** A second-order IIR section (RBJ cookbook coefficients), run one sample at a time. */
public final class Biquad {
    private final double b0;
    private final double b1;
    private final double b2;
    private final double a1;
    private final double a2;
    private double x1;
    private double x2;
    private double y1;
    private double y2;

    private Biquad(double b0, double b1, double b2, double a0, double a1, double a2) {
        this.b0 = b0 / a0;
        this.b1 = b1 / a0;
        this.b2 = b2 / a0;
        this.a1 = a1 / a0;
        this.a2 = a2 / a0;
    }

    /** A band-pass of unit peak gain at {@code centreHz} with quality {@code q}. */
    public static Biquad bandPass(double centreHz, double q, int rate) {
        double w = 2 * Math.PI * centreHz / rate;
        double alpha = Math.sin(w) / (2 * q);
        return new Biquad(alpha, 0, -alpha, 1 + alpha, -2 * Math.cos(w), 1 - alpha);
    }

    /** A high-pass with its corner at {@code cornerHz} and quality {@code q} (0.707: Butterworth). */
    public static Biquad highPass(double cornerHz, double q, int rate) {
        double w = 2 * Math.PI * cornerHz / rate;
        double alpha = Math.sin(w) / (2 * q);
        double cos = Math.cos(w);
        return new Biquad((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
    }

    /** A low-pass with its corner at {@code cornerHz} and quality {@code q}. */
    public static Biquad lowPass(double cornerHz, double q, int rate) {
        double w = 2 * Math.PI * cornerHz / rate;
        double alpha = Math.sin(w) / (2 * q);
        double cos = Math.cos(w);
        return new Biquad((1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
    }

    public double step(double x) {
        double y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        return y;
    }
}
