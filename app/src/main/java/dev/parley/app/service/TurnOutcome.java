package dev.parley.app.service;

import dev.parley.app.store.StoredMessage;
import dev.parley.engine.generate.ContextTrim;
import dev.parley.engine.generate.GenerationStats;
import dev.parley.engine.generate.StopReason;

/**
 * The result of one turn: the stored user message and reply, why it stopped, its timings, and what
 * the model forgot to make room ({@code trim}: null when nothing was dropped; the stored messages
 * are all kept, only the model no longer sees the dropped ones).
 */
public record TurnOutcome(StoredMessage user, StoredMessage reply, StopReason reason, GenerationStats stats,
                          TurnLatency latency, ContextTrim trim) {

    /** An outcome of a turn that dropped nothing from the model's memory. */
    public TurnOutcome(StoredMessage user, StoredMessage reply, StopReason reason, GenerationStats stats,
                       TurnLatency latency) {
        this(user, reply, reason, stats, latency, null);
    }

    /** True when older messages were dropped from the model's memory for this turn. */
    public boolean droppedOlderMessages() {
        return trim != null;
    }
}
