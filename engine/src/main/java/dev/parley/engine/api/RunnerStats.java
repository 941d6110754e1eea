package dev.parley.engine.api;

/** Counts of a local engine's generation loop (until the batcher's metrics replace them). */
public record RunnerStats(int queued, int running, long completed, long cancelled, int maxSequencesInStep) {
}
