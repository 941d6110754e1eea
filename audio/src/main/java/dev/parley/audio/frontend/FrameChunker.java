package dev.parley.audio.frontend;

import java.util.Arrays;

/**
 * Cuts a stream of samples of any block length into frames of a fixed length, keeping the remainder for the next
 * block. Not thread-safe.
 */
final class FrameChunker {
    private final int frameLength;
    private short[] pending = new short[0];
    private int pendingLength;

    FrameChunker(int frameLength) {
        if (frameLength <= 0) {
            throw new IllegalArgumentException("expected a positive frame length but found " + frameLength);
        }
        this.frameLength = frameLength;
    }

    /** Appends {@code samples} and returns how many whole frames are waiting now. */
    int add(short[] samples) {
        if (pendingLength + samples.length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + samples.length));
        }
        System.arraycopy(samples, 0, pending, pendingLength, samples.length);
        pendingLength += samples.length;
        return pendingLength / frameLength;
    }

    /** Copies the oldest whole frame into {@code frame} and removes it; false when none is waiting. */
    boolean next(short[] frame) {
        if (pendingLength < frameLength) {
            return false;
        }
        System.arraycopy(pending, 0, frame, 0, frameLength);
        System.arraycopy(pending, frameLength, pending, 0, pendingLength - frameLength);
        pendingLength -= frameLength;
        return true;
    }

    /** Samples waiting for a whole frame. */
    int pending() {
        return pendingLength;
    }

    void clear() {
        pendingLength = 0;
    }
}
