package dev.parley.app.store;

import java.time.Instant;

/** A stored conversation without its messages, as the conversation list shows it. */
public record ConversationSummary(long id, String title, Instant created, Instant updated) {
}
