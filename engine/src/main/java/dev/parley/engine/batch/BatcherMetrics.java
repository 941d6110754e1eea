package dev.parley.engine.batch;

/**
 * A snapshot of a {@link Batcher}.
 *
 * @param queued             requests waiting for their first admission (preempted sequences wait uncounted)
 * @param maxQueued          the most that ever waited at once
 * @param running            sequences in the running set
 * @param kvBlocksUsed       KV blocks held by running sequences
 * @param kvBlocksCached     KV blocks holding reusable caches (idle conversations, shared prefixes), freed on
 *                           demand
 * @param kvBlocksFree       KV blocks holding nothing
 * @param kvBlocksTotal      blocks in the pool
 * @param kvBytesPerBlock    bytes of one block
 * @param steps              steps run
 * @param multiSequenceSteps steps that held rows of more than one sequence
 * @param maxSequencesInStep the most sequences one step held
 * @param promptTokens       prompt rows computed (reused cache positions not counted)
 * @param generatedTokens    tokens generated
 * @param completed          requests that ended other than by cancellation or failure
 * @param cancelled          requests that ended cancelled
 * @param failed             requests that failed
 * @param preempted          times a running sequence was preempted for memory
 * @param tokensPerSecond    generated tokens per second over the last seconds
 * @param busyFraction       fraction of the time since start spent computing steps
 * @param timeToFirstToken   submission to first token, over recent requests
 * @param interToken         gap between consecutive tokens of a request, over recent tokens
 * @param total              submission to end, over recent requests
 * @param kvFootprintRatio   KV positions held by ended sequences' blocks over the positions they used (1.0 is no
 *                           waste; paging wastes at most one partly filled block per sequence)
 * @param kvBlocksPeak       the most blocks held by running sequences at once
 */
public record BatcherMetrics(int queued, int maxQueued, int running, int kvBlocksUsed, int kvBlocksCached,
                             int kvBlocksFree, int kvBlocksTotal, long kvBytesPerBlock, long steps,
                             long multiSequenceSteps, int maxSequencesInStep, long promptTokens, long generatedTokens,
                             long completed, long cancelled, long failed, long preempted, double tokensPerSecond,
                             double busyFraction, LatencyStats timeToFirstToken, LatencyStats interToken,
                             LatencyStats total, double kvFootprintRatio, int kvBlocksPeak) {
}
