package dev.parley.audio.room;

/**
 * Room impulse responses of shoebox rooms by the image-source method (Allen and Berkley, 1979):
 * every mirror image of the source in the walls contributes {@code beta^k / (4 pi d)} after {@code d / c}
 * seconds, where {@code k} is its number of wall reflections, {@code d} its distance to the microphone
 * and {@code beta = sqrt(1 - a)} the walls' pressure reflection coefficient for the absorption
 * {@code a} that gives the room's RT60. Each image is placed at its exact fractional delay with a
 * Hann-windowed sinc; images are taken up to the time at which the decay has reached -60 dB (the
 * reflection order needed follows from that), then a second-order high-pass at {@value #HIGH_PASS_HZ}
 * Hz removes the method's DC and sub-audio bias. The device latency comes first as zeros. The result
 * is scaled so that the direct path has amplitude 1 / (4 pi d) (free field; mixing sets levels).
 *
 * <p>With one absorption for all six walls, the image method's decay is not one exponential: paths that
 * graze the long walls meet fewer reflections than the average the formulas assume, so flat or long
 * rooms ring longer than Sabine or Eyring predict (measured: a 5 x 6.5 x 2.6 m room asked for 0.6 s
 * gave 0.73 s). {@link #render} therefore starts from the formula's absorption and refines it (at most
 * {@value #FIT_ROUNDS} more renderings) until the response's Schroeder T20 is within
 * {@value #FIT_TOLERANCE_PERCENT}% of the requested RT60; {@link #renderWithStats(RoomSpec, boolean)}
 * without the fit gives the formula's room as it is.
 */
public final class ImageSourceRir {
    /** Speed of sound, m/s (air at about 20 degrees C). */
    public static final double SPEED_OF_SOUND = 343.0;
    static final double HIGH_PASS_HZ = 80.0;
    /** Half-width of the fractional-delay kernel in samples. */
    static final int KERNEL_HALF = 16;
    private static final int PHASES = 512;
    static final int FIT_ROUNDS = 4;
    static final int FIT_TOLERANCE_PERCENT = 3;

    private final int sampleRate;
    private final float[][] kernels;   // kernels[phase][k]: tap k - KERNEL_HALF for a delay of phase / PHASES

    public ImageSourceRir(int sampleRate) {
        if (sampleRate < 8000 || sampleRate > 192_000) {
            throw new IllegalArgumentException("expected a sample rate of 8-192 kHz but found " + sampleRate);
        }
        this.sampleRate = sampleRate;
        kernels = new float[PHASES + 1][2 * KERNEL_HALF + 1];
        for (int p = 0; p <= PHASES; p++) {
            double frac = (double) p / PHASES;
            for (int k = 0; k <= 2 * KERNEL_HALF; k++) {
                double x = k - KERNEL_HALF - frac;              // distance of tap k from the true arrival
                double w = Math.abs(x) >= KERNEL_HALF + 1 ? 0 : 0.5 * (1 + Math.cos(Math.PI * x / (KERNEL_HALF + 1)));
                kernels[p][k] = (float) (w * sinc(x));
            }
        }
    }

    /** Statistics of one rendering. */
    public record Rendered(ImpulseResponse response, double absorption, int maxOrder, long images) {
    }

    /** The impulse response of {@code spec}, its absorption fitted to the requested RT60. */
    public ImpulseResponse render(RoomSpec spec) {
        return renderWithStats(spec, true).response();
    }

    /**
     * The impulse response of {@code spec} with the absorption, highest reflection order and image count used;
     * {@code fitDecay}: refine the formula's absorption until the measured T20 matches the RT60.
     */
    public Rendered renderWithStats(RoomSpec spec, boolean fitDecay) {
        double alpha = spec.absorption().coefficient(spec.room(), spec.rt60());
        Rendered r = renderWith(spec, alpha);
        for (int round = 0; fitDecay && round < FIT_ROUNDS; round++) {
            double measured = Decay.rt60(r.response());
            if (Math.abs(measured - spec.rt60()) <= spec.rt60() * FIT_TOLERANCE_PERCENT / 100.0) {
                break;
            }
            // the decay rate is proportional to -ln(1 - a): scale it by measured / wanted
            double x = -Math.log(1 - alpha) * measured / spec.rt60();
            alpha = Math.min(0.99, 1 - Math.exp(-x));
            r = renderWith(spec, alpha);
        }
        return r;
    }

    private Rendered renderWith(RoomSpec spec, double alpha) {
        Shoebox room = spec.room();
        double beta = Math.sqrt(1 - alpha);
        int latency = (int) Math.round(spec.latencyMillis() / 1000.0 * sampleRate);
        double direct = spec.source().distanceTo(spec.mic());
        double maxTime = direct / SPEED_OF_SOUND + spec.rt60();
        double maxDistance = maxTime * SPEED_OF_SOUND;
        int length = latency + (int) Math.ceil(maxTime * sampleRate) + KERNEL_HALF + 1;
        double[] h = new double[length];
        double[] lx = {room.width(), room.depth(), room.height()};
        double[] s = {spec.source().x(), spec.source().y(), spec.source().z()};
        double[] m = {spec.mic().x(), spec.mic().y(), spec.mic().z()};
        int[] nMax = new int[3];
        for (int a = 0; a < 3; a++) {
            nMax[a] = (int) Math.ceil(maxDistance / (2 * lx[a])) + 1;
        }
        double samplesPerMetre = sampleRate / SPEED_OF_SOUND;
        int maxOrder = 0;
        long images = 0;
        double[] dx = new double[2 * nMax[0] + 1 << 1];
        int[] kx = new int[dx.length];
        double[] dy = new double[2 * nMax[1] + 1 << 1];
        int[] ky = new int[dy.length];
        double[] dz = new double[2 * nMax[2] + 1 << 1];
        int[] kz = new int[dz.length];
        axis(lx[0], s[0], m[0], nMax[0], dx, kx);
        axis(lx[1], s[1], m[1], nMax[1], dy, ky);
        axis(lx[2], s[2], m[2], nMax[2], dz, kz);
        double maxD2 = maxDistance * maxDistance;
        for (int i = 0; i < dx.length; i++) {
            double x2 = dx[i] * dx[i];
            if (x2 > maxD2) {
                continue;
            }
            for (int j = 0; j < dy.length; j++) {
                double xy2 = x2 + dy[j] * dy[j];
                if (xy2 > maxD2) {
                    continue;
                }
                for (int k = 0; k < dz.length; k++) {
                    double d2 = xy2 + dz[k] * dz[k];
                    if (d2 > maxD2) {
                        continue;
                    }
                    double d = Math.sqrt(d2);
                    int order = kx[i] + ky[j] + kz[k];
                    double amp = Math.pow(beta, order) / (4 * Math.PI * Math.max(d, 0.01));
                    double at = latency + d * samplesPerMetre;
                    addTap(h, at, amp, latency);
                    maxOrder = Math.max(maxOrder, order);
                    images++;
                }
            }
        }
        highPass(h, latency);
        float[] taps = new float[length];
        for (int i = 0; i < length; i++) {
            taps[i] = (float) h[i];
        }
        return new Rendered(new ImpulseResponse(spec.name(), taps, sampleRate), alpha, maxOrder, images);
    }

    /** Image coordinates along one axis relative to the microphone, and their reflection counts. */
    private static void axis(double l, double s, double m, int nMax, double[] d, int[] k) {
        int i = 0;
        for (int n = -nMax; n <= nMax; n++) {
            d[i] = 2 * n * l + s - m;
            k[i++] = Math.abs(2 * n);
            d[i] = 2 * n * l - s - m;
            k[i++] = Math.abs(2 * n - 1);
        }
    }

    private void addTap(double[] h, double at, double amp, int floor) {
        int whole = (int) Math.floor(at);
        double frac = at - whole;
        float[] kernel = kernels[(int) Math.round(frac * PHASES)];
        int start = whole - KERNEL_HALF;
        for (int k = 0; k < kernel.length; k++) {
            int idx = start + k;
            if (idx >= floor && idx < h.length) {
                h[idx] += amp * kernel[k];
            }
        }
    }

    /** Second-order Butterworth high-pass (bilinear transform), run forward from {@code from}. */
    private void highPass(double[] h, int from) {
        double w = Math.tan(Math.PI * HIGH_PASS_HZ / sampleRate);
        double q = Math.sqrt(0.5);
        double norm = 1 / (1 + w / q + w * w);
        double b0 = norm;
        double b1 = -2 * norm;
        double b2 = norm;
        double a1 = 2 * (w * w - 1) * norm;
        double a2 = (1 - w / q + w * w) * norm;
        double x1 = 0;
        double x2 = 0;
        double y1 = 0;
        double y2 = 0;
        for (int i = from; i < h.length; i++) {
            double x = h[i];
            double y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
            x2 = x1;
            x1 = x;
            y2 = y1;
            y1 = y;
            h[i] = y;
        }
    }

    private static double sinc(double x) {
        if (Math.abs(x) < 1e-12) {
            return 1;
        }
        return Math.sin(Math.PI * x) / (Math.PI * x);
    }
}
