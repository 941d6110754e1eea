package dev.parley.app.service;

import java.util.List;

/**
 * What the dashboard shows, read in one go at a fixed rate (never pushed per event).
 *
 * @param sequence         increases by one with every finished turn, so a view can tell what is new
 * @param queued           turns waiting for the engine thread
 * @param running          sequences being generated (0 or 1: one engine thread)
 * @param liveTokens       tokens of the reply being generated so far (0 when idle)
 * @param turns            the last turns' latencies, oldest first (bounded)
 * @param weightsBytes     tensor data the model reads per token
 * @param kvUsedBytes      KV cache bytes holding tokens now
 * @param kvBudgetBytes    KV cache bytes allocated
 * @param heapUsedBytes    JVM heap in use
 * @param heapMaxBytes     JVM heap limit
 * @param rssBytes         resident memory of the process (-1 where /proc is not available)
 * @param gpuBytes         GPU memory in use (-1 without a GPU backend)
 */
public record MetricsSnapshot(long sequence, boolean modelLoaded, String modelName, boolean generating, int queued,
                              int running, int liveTokens, List<TurnLatency> turns, long weightsBytes,
                              long kvUsedBytes, long kvBudgetBytes, long heapUsedBytes, long heapMaxBytes,
                              long rssBytes, long gpuBytes) {
    public MetricsSnapshot {
        turns = List.copyOf(turns);
    }

    /** The last turn, if any. */
    public java.util.Optional<TurnLatency> lastTurn() {
        return turns.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(turns.getLast());
    }
}
