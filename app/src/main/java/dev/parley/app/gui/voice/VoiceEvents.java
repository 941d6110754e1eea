package dev.parley.app.gui.voice;

/** What the voice loop reports to the UI; called on the loop's threads, so implementations hand over. */
public interface VoiceEvents {
    /** Input level of a captured frame in dBFS. */
    void level(double dbfs);

    /** The live transcript of the utterance so far. */
    void partial(String text);

    /** Parley started ({@code true}) or stopped speaking. */
    void speaking(boolean speaking);

    /** A stage failed; the message says which and why. */
    void error(String message);
}
