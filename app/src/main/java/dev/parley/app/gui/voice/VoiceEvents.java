package dev.parley.app.gui.voice;

/** What the voice loop reports to the UI; called on the loop's threads, so implementations hand over. */
public interface VoiceEvents {
    /** Input level of a captured frame in dBFS. */
    void level(double dbfs);

    /** The live transcript of the utterance so far. */
    void partial(String text);

    /** Parley started ({@code true}) or stopped speaking. */
    void speaking(boolean speaking);

    /**
     * The microphone or speaker is unavailable (busy, gone): the message says which, what happened and that Parley
     * retries. The loop goes on; {@link #deviceRecovered} follows once the device is back.
     */
    default void deviceFault(String message) {
        error(message);
    }

    /** The device of the last {@link #deviceFault} works again. */
    default void deviceRecovered() {
    }

    /** A stage failed; the message says which and why. */
    void error(String message);
}
