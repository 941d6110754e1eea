package dev.parley.app.service;

import dev.parley.app.store.StoredMessage;
import dev.parley.engine.generate.GenerationStats;
import dev.parley.engine.generate.StopReason;

/** The result of one turn: the stored user message and reply, why it stopped, and its timings. */
public record TurnOutcome(StoredMessage user, StoredMessage reply, StopReason reason, GenerationStats stats,
                          TurnLatency latency) {
}
