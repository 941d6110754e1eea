package dev.parley.engine.generate;

/**
 * What a generation streams to its listener, in order: any number of {@link Token} and
 * {@link Text} events, then exactly one {@link Done}. Concatenating the texts gives the output.
 */
public sealed interface TokenEvent {

    /**
     * A new token and the text that became safe to show with it: possibly empty (an incomplete UTF-8
     * sequence, or text held back because it could be the start of a stop string), possibly more than
     * the token's own piece (text held back earlier and released now).
     */
    record Token(int id, String text) implements TokenEvent {
    }

    /** Text released at the end without a new token (held back earlier, then not a stop string after all). */
    record Text(String text) implements TokenEvent {
    }

    /** The end of the generation. */
    record Done(StopReason reason, GenerationStats stats) implements TokenEvent {
    }
}
