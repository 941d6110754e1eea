package dev.parley.audio.frontend;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import java.util.function.LongSupplier;

/**
 * The render reference laid on the capture's timeline. Capture sample {@code c} was recorded at
 * {@code t0 + c / 16 kHz}; t0 is the earliest of (arrival time - audio received until then) over all captured
 * blocks, since no block arrives before it is recorded (a backlog queued before the loop started reads fast, and
 * must not move the timeline). A piece the sink hands to the
 * device at wall time {@code w} sounds from {@code (w - t0) * 16 kHz}, or right behind the previous piece when the
 * sink is writing ahead (its lead). Each captured 10 ms frame then takes the render samples of the same positions:
 * silence where nothing played. Placing by the clock, not by call order, keeps render and capture aligned when the
 * capture thread falls behind and catches up in a burst (measured: pairing frames by call order let AEC3's ERLE stay
 * near 0 dB in the full-duplex loop on a busy machine). A stop drops what had not sounded yet.
 *
 * <p>{@link #add}/{@link #flush} come from the sink's thread, {@link #start}/{@link #take} from the capture thread.
 */
final class RenderTimeline {
    private final short[] ring;
    private final LongSupplier clock;
    private long t0 = Long.MIN_VALUE;
    private long cursor;            // position one past the last render sample placed
    private long oldest;            // positions below this are gone from the ring
    private Resampler resampler;

    /** @param capacity render samples kept (bounds how far the capture may lag) */
    RenderTimeline(int capacity, LongSupplier nanoClock) {
        ring = new short[capacity];
        clock = nanoClock;
    }

    /** Captured audio up to position {@code receivedEnd} (exclusive) has just arrived. */
    synchronized void captured(long receivedEnd) {
        long t = clock.getAsLong() - receivedEnd * 1_000_000_000L / AudioFrontEnd.SAMPLE_RATE;
        if (t0 == Long.MIN_VALUE || t < t0) {
            t0 = t;
        }
    }

    private long positionNow() {
        return (clock.getAsLong() - t0) * AudioFrontEnd.SAMPLE_RATE / 1_000_000_000L;
    }

    /**
     * {@code audio} (mono, any rate) was handed to the device now; it sounds from {@code startsAtNanos} by the sink's
     * clock ({@code Long.MIN_VALUE}: right away, or behind the previous piece).
     */
    synchronized void add(PcmAudio audio, long startsAtNanos) {
        if (t0 == Long.MIN_VALUE) {
            return;                 // nothing captured yet: no timeline to place it on
        }
        short[] s = audio.samples();
        if (audio.sampleRate() != AudioFrontEnd.SAMPLE_RATE) {
            if (resampler == null || resampler.inRate() != audio.sampleRate()) {
                resampler = new Resampler(audio.sampleRate(), AudioFrontEnd.SAMPLE_RATE);
            }
            s = resampler.process(s, 0, s.length);
        }
        long now = startsAtNanos == Long.MIN_VALUE ? positionNow()
                : (startsAtNanos - t0) * AudioFrontEnd.SAMPLE_RATE / 1_000_000_000L;
        if (cursor < now) {
            clear(cursor, now);     // nothing sounded in between
            cursor = now;
        }
        for (short v : s) {
            ring[(int) Math.floorMod(cursor, (long) ring.length)] = v;
            cursor++;
        }
        oldest = Math.max(oldest, cursor - ring.length);
    }

    /** Playback was cut now: what was placed ahead of now never sounds. */
    synchronized void flush() {
        if (t0 == Long.MIN_VALUE) {
            return;
        }
        long now = positionNow();
        if (cursor > now) {
            clear(now, cursor);
            cursor = Math.max(now, oldest);
        }
        if (resampler != null) {
            resampler.reset();
        }
    }

    /** Fills {@code frame} with the render samples at capture positions {@code [from, from + frame.length)}. */
    synchronized boolean take(long from, short[] frame) {
        boolean any = false;
        for (int i = 0; i < frame.length; i++) {
            long p = from + i;
            short v = p >= oldest && p < cursor ? ring[(int) Math.floorMod(p, (long) ring.length)] : 0;
            frame[i] = v;
            any |= v != 0;
        }
        return any;
    }

    private void clear(long from, long to) {
        for (long p = Math.max(from, to - ring.length); p < to; p++) {
            ring[(int) Math.floorMod(p, (long) ring.length)] = 0;
        }
    }
}
