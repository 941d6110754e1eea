package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates noise beds at {@link RoomWav#ROOM_RATE} Hz from a seed, each normalised to an RMS of
 * {@value #BED_DBFS} dBFS (mixing sets the level it is heard at). Babble and café beds need speech
 * snippets (recordings at the room rate), spread over many simultaneous talkers and heard through a
 * reverberant room.
 */
public final class NoiseBeds {
    static final double BED_DBFS = -30.0;
    private static final int RATE = RoomWav.ROOM_RATE;

    private NoiseBeds() {
    }

    /** A bed of {@code kind}, {@code seconds} long. */
    public static float[] make(NoiseBed kind, double seconds, long seed, List<float[]> snippets) {
        if (!(seconds >= 1 && seconds <= 600)) {
            throw new IllegalArgumentException("expected a noise bed of 1-600 s but found " + seconds);
        }
        int n = (int) Math.round(seconds * RATE);
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] bed = switch (kind) {
            case FAN -> fan(n, rnd);
            case BABBLE -> babble(n, rnd, snippets, 8);
            case CAFE -> cafe(n, rnd, snippets);
        };
        return normalise(bed, BED_DBFS);
    }

    static float[] fan(int n, SplittableRandom rnd) {
        float[] out = new float[n];
        // broadband: white noise through a one-pole low-pass (the motor's rumble) plus a softer white part,
        // then a resonance around the blade's turbulence band
        double lp = 0;
        double alpha = Math.exp(-2 * Math.PI * (150 + rnd.nextDouble() * 150) / RATE);
        Biquad band = Biquad.bandPass(400 + rnd.nextDouble() * 400, 1.2, RATE);
        double mains = rnd.nextBoolean() ? 50 : 60;
        double blade = 90 + rnd.nextDouble() * 80;
        double swellHz = 0.1 + rnd.nextDouble() * 0.2;
        double phase = rnd.nextDouble() * 2 * Math.PI;
        for (int i = 0; i < n; i++) {
            double w = rnd.nextDouble() * 2 - 1;
            lp = alpha * lp + (1 - alpha) * w;
            double broadband = 3.0 * lp + 0.08 * w + 0.5 * band.step(w);
            double t = (double) i / RATE;
            double hum = 0.02 * Math.sin(2 * Math.PI * mains * t) + 0.012 * Math.sin(2 * Math.PI * 2 * mains * t + 1)
                    + 0.006 * Math.sin(2 * Math.PI * 3 * mains * t + 2);
            double tones = 0.015 * Math.sin(2 * Math.PI * blade * t) + 0.007 * Math.sin(2 * Math.PI * 2 * blade * t + 0.5);
            double swell = 1 + 0.12 * Math.sin(2 * Math.PI * swellHz * t + phase);
            out[i] = (float) (swell * broadband + hum + tones);
        }
        return out;
    }

    static float[] babble(int n, SplittableRandom rnd, List<float[]> snippets, int talkers) {
        if (snippets == null || snippets.isEmpty()) {
            throw new IllegalArgumentException("expected speech snippets for a babble bed but found none");
        }
        float[] dry = new float[n];
        for (int t = 0; t < talkers; t++) {
            double talkerGain = Math.pow(10, (rnd.nextDouble() * 12 - 6) / 20);
            int pos = rnd.nextInt(RATE);
            while (pos < n) {
                float[] s = snippets.get(rnd.nextInt(snippets.size()));
                // speed and pitch together, by resampling: 0.8x to 1.25x, on rates that keep the filter small
                int outRate = 400 * (int) Math.round(RATE / 400.0 * (0.8 + rnd.nextDouble() * 0.45));
                float[] shifted = outRate == RATE ? s
                        : Levels.toFloat(Resampler.resample(new PcmAudio(Levels.toShort(s), RATE), outRate).samples());
                double g = talkerGain * Math.pow(10, (rnd.nextDouble() * 6 - 3) / 20) / Math.pow(10, Levels.activeDb(shifted, RATE) / 20);
                for (int i = 0; i < shifted.length && pos + i < n; i++) {
                    dry[pos + i] += (float) (shifted[i] * g * 0.05);
                }
                pos += shifted.length + (int) (RATE * (0.05 + rnd.nextDouble() * 0.5));
            }
        }
        return distant(dry, rnd);
    }

    static float[] cafe(int n, SplittableRandom rnd, List<float[]> snippets) {
        float[] out = normalise(babble(n, rnd, snippets, 6), -34);
        float[] clatter = new float[n];
        int pos = rnd.nextInt(RATE / 2);
        while (pos < n) {
            if (rnd.nextDouble() < 0.8) {
                clink(clatter, pos, rnd);
            } else {
                scrape(clatter, pos, rnd);
            }
            pos += (int) (RATE * (-Math.log(1 - rnd.nextDouble()) / 1.5));   // about 1.5 events a second
        }
        float[] room = distant(clatter, rnd);
        room = normalise(room, -35);
        for (int i = 0; i < n; i++) {
            out[i] += room[i];
        }
        return out;
    }

    /** A cup or plate: a few damped partials between 1.5 and 7 kHz, with a noisy strike. */
    private static void clink(float[] x, int at, SplittableRandom rnd) {
        int partials = 2 + rnd.nextInt(3);
        double level = Math.pow(10, (rnd.nextDouble() * 18 - 12) / 20);
        for (int p = 0; p < partials; p++) {
            double f = 1500 + rnd.nextDouble() * 5500;
            double decay = 0.03 + rnd.nextDouble() * 0.15;
            double ph = rnd.nextDouble() * 2 * Math.PI;
            double a = level / partials;
            int len = (int) (decay * 6 * RATE);
            for (int i = 0; i < len && at + i < x.length; i++) {
                double t = (double) i / RATE;
                x[at + i] += (float) (a * Math.exp(-t / decay) * Math.sin(2 * Math.PI * f * t + ph));
            }
        }
        for (int i = 0; i < RATE / 200 && at + i < x.length; i++) {
            x[at + i] += (float) (level * 0.5 * (rnd.nextDouble() * 2 - 1) * (1 - i / (RATE / 200.0)));
        }
    }

    /** A chair or cutlery scrape: band-passed noise of 0.1-0.4 s with a rough envelope. */
    private static void scrape(float[] x, int at, SplittableRandom rnd) {
        Biquad bp = Biquad.bandPass(600 + rnd.nextDouble() * 2500, 3, RATE);
        int len = (int) (RATE * (0.1 + rnd.nextDouble() * 0.3));
        double level = Math.pow(10, (rnd.nextDouble() * 12 - 14) / 20);
        for (int i = 0; i < len && at + i < x.length; i++) {
            double env = Math.sin(Math.PI * i / len) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 23 * i / RATE));
            x[at + i] += (float) (level * env * bp.step(rnd.nextDouble() * 2 - 1) * 4);
        }
    }

    /** Through a medium room from a few metres away, so the bed sounds diffuse rather than close. */
    private static float[] distant(float[] dry, SplittableRandom rnd) {
        Shoebox box = new Shoebox(8 + rnd.nextDouble() * 4, 6 + rnd.nextDouble() * 3, 3);
        RoomSpec spec = new RoomSpec("bed", box, new Point3(1.5, 1.5, 1.5), new Point3(box.width() - 2, box.depth() - 2, 1.2),
                0.5 + rnd.nextDouble() * 0.3, 0, Absorption.EYRING);
        float[] h = new ImageSourceRir(RATE).render(spec).taps();
        float[] wet = BlockConvolver.convolve(dry, h);
        float[] out = new float[dry.length];
        System.arraycopy(wet, 0, out, 0, dry.length);
        return out;
    }

    static float[] normalise(float[] x, double dbfs) {
        double g = Levels.gain(Levels.rmsDb(x), dbfs);
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = (float) (x[i] * g);
        }
        return out;
    }
}
