package dev.parley.audio.asr;

/**
 * What the recognizer heard: a {@link Partial} hypothesis while the user is still speaking (for the
 * live transcript), or the {@link Final} text of an utterance. Text is lower-case words separated
 * by single spaces; empty means no speech; {@code [unk]} marks speech the model could not match.
 */
public sealed interface Transcript permits Transcript.Partial, Transcript.Final {
    /** The recognized words. */
    String text();

    /** Whether there are no words. */
    default boolean isEmpty() {
        return text().isBlank();
    }

    /** A provisional hypothesis for the speech so far. */
    record Partial(String text) implements Transcript {
        public Partial {
            text = text == null ? "" : text.strip();
        }
    }

    /**
     * The final text of one utterance; {@code sure}: only the words the recognizer is sure of, and {@code certain}:
     * those it has next to no doubt of (all of them where it gives no confidences). The voice loop takes the sure
     * words for what it hears over its own reply, and asks a single word of its user's there to be certain.
     */
    record Final(String text, String sure, String certain) implements Transcript {
        public Final {
            text = text == null ? "" : text.strip();
            sure = sure == null ? text : sure.strip();
            certain = certain == null ? sure : certain.strip();
        }

        /** A result whose sure words are all certain. */
        public Final(String text, String sure) {
            this(text, sure, null);
        }

        /** A result whose words are all certain. */
        public Final(String text) {
            this(text, null, null);
        }
    }
}
