package dev.parley.audio;

import java.util.ArrayDeque;

/**
 * Full duplex: how much of the last moments over a reply was the user's voice rather than echo, frame by frame. A
 * frame counts where the VAD hears it voiced, it stands out of the room and the echo canceller left it mostly untouched
 * ({@code ListenLoop}); the window counts such frames over its span, not only an unbroken run of them. Measured in
 * `bench duplex` (echo 6 dB louder than the user): even a canceller that removes the echo entirely leaves a frame of
 * the user's voice with about 7 dB of "reduction" where the echo is louder at that moment, so the user's syllables
 * pass the test and the gaps between them do not, and runs of 100 ms broke by a single frame (a barge-in's first
 * 500 ms held 60 and 80 ms). Not thread-safe: the listen loop's thread uses it.
 */
final class NearEndWindow {
    private record Frame(double millis, boolean nearEnd, double levelDbfs) {
    }

    private final double spanMillis;
    private final ArrayDeque<Frame> frames = new ArrayDeque<>();
    private double totalMillis;
    private double nearEndMillis;

    /** @param spanMillis how far back the window looks */
    NearEndWindow(double spanMillis) {
        if (!(spanMillis > 0)) {
            throw new IllegalArgumentException("expected a positive span in ms but found " + spanMillis);
        }
        this.spanMillis = spanMillis;
    }

    /** One frame of {@code millis} ms; {@code nearEnd}: it was the user's voice. */
    void add(double millis, boolean nearEnd) {
        add(millis, nearEnd, LevelMeter.SILENCE_DBFS);
    }

    /** One frame of {@code millis} ms at {@code levelDbfs}; {@code nearEnd}: it was the user's voice. */
    void add(double millis, boolean nearEnd, double levelDbfs) {
        frames.addLast(new Frame(millis, nearEnd, levelDbfs));
        totalMillis += millis;
        if (nearEnd) {
            nearEndMillis += millis;
        }
        while (totalMillis - frames.peekFirst().millis() >= spanMillis) {
            Frame f = frames.removeFirst();
            totalMillis -= f.millis();
            if (f.nearEnd()) {
                nearEndMillis -= f.millis();
            }
        }
    }

    /** How many ms of the window's span were the user's voice. */
    double nearEndMillis() {
        return nearEndMillis;
    }

    /** How far back the window's first frame of the user's voice lies, ms (0 when there is none). */
    double sinceFirstMillis() {
        double back = totalMillis;
        for (Frame f : frames) {
            if (f.nearEnd()) {
                return back;
            }
            back -= f.millis();
        }
        return 0;
    }

    /** A frame's short-term level, dBFS, and length, ms. */
    @FunctionalInterface
    interface FrameLevel {
        void accept(double levelDbfs, double millis);
    }

    /** Passes the window's frames of the user's voice, oldest first, to {@code to}. */
    void forEachNearEnd(FrameLevel to) {
        for (Frame f : frames) {
            if (f.nearEnd()) {
                to.accept(f.levelDbfs(), f.millis());
            }
        }
    }

    void clear() {
        frames.clear();
        totalMillis = 0;
        nearEndMillis = 0;
    }
}
