package dev.parley.app.voice;

import dev.parley.engine.generate.StopReason;

/**
 * One reply the engine produced for a spoken turn, as it stays in the conversation history.
 *
 * @param userText    what the user said
 * @param replyText   the text generated (up to the barge-in when interrupted; it stays in the history)
 * @param reason      why generation ended ({@link StopReason#CANCELLED} on barge-in)
 * @param tokens      tokens generated
 * @param interrupted whether the user spoke over the reply (or it was otherwise cancelled)
 */
public record SpokenReply(String userText, String replyText, StopReason reason, int tokens, boolean interrupted) {
}
