package dev.parley.app.service;

/**
 * The stages of one turn in milliseconds, for the stacked latency chart. Typed turns have no
 * transcript and audio stages (0). Time to first token is {@code queuedMs + savedMs + promptMs},
 * measured from the moment the turn was handed over.
 *
 * @param turn            number of the turn since the app started, from 1
 * @param transcriptMs    speech end to final transcript (spoken turns)
 * @param queuedMs        waiting for the engine thread
 * @param savedMs         opening the chat and writing the user's message to the database (synced)
 * @param promptMs        prompt ingestion up to the first token
 * @param generationMs    first token to the end of the reply
 * @param firstAudioMs    first token to the first synthesized audio (spoken turns)
 * @param tokens          tokens generated
 */
public record TurnLatency(long turn, boolean spoken, double transcriptMs, double queuedMs, double savedMs,
                          double promptMs, double generationMs, double firstAudioMs, int tokens) {

    /** From hand-over to the first token. */
    public double timeToFirstTokenMs() {
        return queuedMs + savedMs + promptMs;
    }

    /** Generation speed after the first token (0 when too short to tell). */
    public double tokensPerSecond() {
        return generationMs <= 0 || tokens < 2 ? 0 : (tokens - 1) * 1000.0 / generationMs;
    }
}
