package dev.parley.audio;

import dev.parley.audio.asr.Transcript;
import dev.parley.audio.device.DeviceFault;

/**
 * Observes a {@link VoicePipeline}. Methods are called on the pipeline's own threads and must
 * return quickly (a UI hands them over to its own thread, coalescing the frequent ones).
 */
public interface VoiceListener {
    /** Input level of each captured frame, in dBFS (for a level meter). */
    default void level(double dbfs) {
    }

    /** The live transcript changed. */
    default void partial(Transcript.Partial partial) {
    }

    /** The user's turn ended with this text; a reply follows unless it is empty. */
    default void userTurn(long turn, Transcript.Final text) {
    }

    /** A piece of the reply text arrived. */
    default void replyText(long turn, String piece) {
    }

    /** A sentence of the reply started playing. */
    default void speaking(long turn, String sentence) {
    }

    /** The user spoke over the reply of {@code turn}: playback stopped and the reply was cancelled. */
    default void bargeIn(long turn) {
    }

    /**
     * Full duplex: speech over the reply of {@code turn} holds it ({@code held}) until words confirm a barge-in, or
     * the reply resumes because none came (a false interruption: a cough, a knock).
     */
    default void replyHeld(long turn, boolean held) {
    }

    /** A turn finished (normally or interrupted); its latency stamps are in the exchange. */
    default void turnFinished(Exchange exchange) {
    }

    /**
     * The microphone or speaker cannot be used (busy, gone, stopped mid-turn): {@link DeviceFault#message()} says
     * which, what happened and that Parley retries. The loop keeps running; said once per outage.
     */
    default void deviceFault(DeviceFault fault) {
    }

    /** The device of an earlier {@link #deviceFault} works again: the loop listens (or speaks) again. */
    default void deviceRecovered(DeviceFault.Kind kind, String device) {
    }

    /** A stage failed; the pipeline keeps running when it can. */
    default void error(Throwable error) {
    }
}
