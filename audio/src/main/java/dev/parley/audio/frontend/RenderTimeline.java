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
 * sink is writing ahead (its lead). A piece that starts, by the sink's clock, where the one before it ended follows it
 * sample for sample, wherever t0 has moved since: t0 only ever moves earlier, each time a captured block comes in
 * sooner than any before (measured in {@code FullDuplexPipelineTest}: by 5.2 and 2.1 ms over the first 80 ms, by
 * fractions of a millisecond later on), and a piece placed by the clock moved by as much against the one before it.
 * The linear canceller's filter is the echo path at one lag: a move of a few samples throws it off for 100-300 ms, the
 * echo comes through at 0-5 dB of reduction, and the loop holds the reply on it (see {@code SpeakerSink}, whose
 * restarts moved the reference alike). Each captured 10 ms frame then takes the render samples of the same positions:
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
    /** Where, by the sink's clock, the piece after the last one placed would start: it follows on at the cursor. */
    private long nextStartNanos = Long.MIN_VALUE;
    private long oldest;            // positions below this are gone from the ring
    /** The run of playback placed last (a piece placed by the clock starts one; -1 before any), and where it starts. */
    private long run = -1;
    private long runStart;
    /** Reads at or after {@link #runStart} take the sample this far on ({@link #offsetRun}); reads before it, the last's. */
    private long runOffset;
    private long previousOffset;
    private Resampler resampler;

    /**
     * A piece whose start by the sink's clock is within this of where the last one ended follows it on: the sink's
     * arithmetic rounds to the nanosecond, and an underrun restarts its clock at least a scheduling delay later.
     */
    static final long CONTIGUOUS_NANOS = 20_000;

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
        long now;
        boolean followsOn = false;
        if (startsAtNanos == Long.MIN_VALUE) {
            now = positionNow();
            nextStartNanos = Long.MIN_VALUE;
        } else {
            followsOn = nextStartNanos != Long.MIN_VALUE
                    && Math.abs(startsAtNanos - nextStartNanos) <= CONTIGUOUS_NANOS;
            now = followsOn ? cursor : (startsAtNanos - t0) * AudioFrontEnd.SAMPLE_RATE / 1_000_000_000L;
            nextStartNanos = startsAtNanos + audio.length() * 1_000_000_000L / audio.sampleRate();
        }
        long cursorBefore = cursor;
        if (cursor < now) {
            clear(cursor, now);     // nothing sounded in between
            cursor = now;
        }
        if (!followsOn && (run < 0 || now > cursorBefore)) {
            run++;
            runStart = cursor;
            previousOffset = runOffset;
            runOffset = 0;
        }
        for (short v : s) {
            ring[(int) Math.floorMod(cursor, (long) ring.length)] = v;
            cursor++;
        }
        oldest = Math.max(oldest, cursor - ring.length);
    }

    /** Playback was cut now: what was placed ahead of now never sounds. */
    synchronized void flush() {
        nextStartNanos = Long.MIN_VALUE;
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

    /** The run of playback placed last (-1 before any): a stop, an idle spell or a pause of the sink starts a new one. */
    synchronized long run() {
        return run;
    }

    /** Where the run placed last starts, in capture positions. */
    synchronized long runStart() {
        return runStart;
    }

    /**
     * Run {@code id} sounds {@code offset} samples later than it was placed (earlier where negative): from now on a read
     * at position p takes the sample placed at p - offset. Nothing happens if another run has started since.
     */
    synchronized void offsetRun(long id, long offset) {
        if (id == run) {
            runOffset = offset;
        }
    }

    /** Fills {@code frame} with the render samples at capture positions {@code [from, from + frame.length)}. */
    synchronized boolean take(long from, short[] frame) {
        boolean any = false;
        for (int i = 0; i < frame.length; i++) {
            long p = from + i;
            p -= p >= runStart ? runOffset : previousOffset;
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
