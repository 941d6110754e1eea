package dev.parley.audio.asr;

import dev.parley.audio.PcmAudio;
import java.io.IOException;

/**
 * One stream of speech being recognized (one recognizer state, used by one thread at a time).
 */
public interface RecognitionStream extends AutoCloseable {
    /** The sample rate the stream expects. */
    int sampleRate();

    /**
     * Feeds audio. Returns a {@link Transcript.Final} when the recognizer found the end of an
     * utterance (its own endpointing), else the current {@link Transcript.Partial}.
     */
    Transcript accept(PcmAudio audio) throws IOException;

    /** Ends the current utterance now and returns its final text; the stream can then be reused. */
    Transcript.Final finish() throws IOException;

    /** Drops the current utterance without a result. */
    void reset();

    @Override
    void close();
}
