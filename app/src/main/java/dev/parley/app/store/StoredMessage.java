package dev.parley.app.store;

import dev.parley.engine.tokenizer.Role;
import java.time.Instant;
import java.util.Objects;

/**
 * One completed message of a stored conversation.
 *
 * @param spoken      true when the turn was spoken (voice) rather than typed
 * @param interrupted true when the reply was stopped or barged in before it ended
 */
public record StoredMessage(long id, long conversationId, Role role, String content, boolean spoken,
                            boolean interrupted, Instant created) {

    public StoredMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(created, "created");
    }
}
