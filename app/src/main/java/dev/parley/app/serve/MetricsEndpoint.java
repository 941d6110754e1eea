package dev.parley.app.serve;

import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.batch.BatcherMetrics;
import dev.parley.engine.batch.LatencyStats;
import java.util.Map;

/** {@code GET /metrics}: the batcher's figures and the server's request counts, as Prometheus text. */
final class MetricsEndpoint {
    private final LocalEngine engine;
    private final HttpMetrics http;

    MetricsEndpoint(LocalEngine engine, HttpMetrics http) {
        this.engine = engine;
        this.http = http;
    }

    String render() {
        PrometheusText p = new PrometheusText();
        BatcherMetrics m = engine.metrics();
        p.single("parley_batch_queued_requests", "gauge", "Requests waiting for admission.", m.queued());
        p.single("parley_batch_max_queued_requests", "gauge", "The most requests that ever waited at once.",
                m.maxQueued());
        p.single("parley_batch_running_sequences", "gauge", "Sequences in the running set.", m.running());
        p.single("parley_kv_blocks_used", "gauge", "KV blocks held by running sequences.", m.kvBlocksUsed());
        p.single("parley_kv_blocks_cached", "gauge", "KV blocks holding reusable caches, freed on demand.",
                m.kvBlocksCached());
        p.single("parley_kv_blocks_free", "gauge", "KV blocks holding nothing.", m.kvBlocksFree());
        p.single("parley_kv_blocks_total", "gauge", "KV blocks in the pool.", m.kvBlocksTotal());
        p.single("parley_kv_block_bytes", "gauge", "Bytes of one KV block.", m.kvBytesPerBlock());
        p.single("parley_batch_steps_total", "counter", "Batcher steps run.", m.steps());
        p.single("parley_batch_multi_sequence_steps_total", "counter", "Steps that held rows of more than one "
                + "sequence.", m.multiSequenceSteps());
        p.single("parley_batch_max_sequences_in_step", "gauge", "The most sequences one step held.",
                m.maxSequencesInStep());
        p.single("parley_batch_prompt_tokens_total", "counter", "Prompt rows computed (reused cache not counted).",
                m.promptTokens());
        p.single("parley_batch_generated_tokens_total", "counter", "Tokens generated.", m.generatedTokens());
        p.single("parley_batch_completed_total", "counter", "Requests that ended other than by cancellation or "
                + "failure.", m.completed());
        p.single("parley_batch_cancelled_total", "counter", "Requests cancelled (client gone or barge-in).",
                m.cancelled());
        p.single("parley_batch_failed_total", "counter", "Requests that failed in the engine.", m.failed());
        p.single("parley_batch_preempted_total", "counter", "Times a running sequence was preempted for memory.",
                m.preempted());
        p.single("parley_batch_tokens_per_second", "gauge", "Generated tokens per second over the last seconds.",
                m.tokensPerSecond());
        p.single("parley_batch_busy_fraction", "gauge", "Fraction of the time spent computing steps.",
                m.busyFraction());
        latency(p, "parley_time_to_first_token_seconds", "Submission to first token, recent requests.",
                m.timeToFirstToken());
        latency(p, "parley_inter_token_seconds", "Gap between consecutive tokens, recent tokens.", m.interToken());
        latency(p, "parley_request_seconds", "Submission to end, recent requests.", m.total());

        p.family("parley_http_requests_total", "counter", "HTTP responses by route and status (499: client gone).");
        for (Map.Entry<HttpMetrics.Key, Long> e : http.requests().entrySet()) {
            p.sample("parley_http_requests_total", e.getValue(), "route", e.getKey().route(), "status",
                    Integer.toString(e.getKey().status()));
        }
        p.single("parley_http_rejected_connections_total", "counter",
                "Connections closed because every worker was busy and the queue was full.", http.rejected.sum());
        p.single("parley_http_client_disconnects_total", "counter",
                "Streams whose client went away before the end (their requests were cancelled).", http.disconnects.sum());
        p.single("parley_prompt_tokens_total", "counter", "Prompt tokens of accepted requests.", http.promptTokens.sum());
        p.single("parley_completion_tokens_total", "counter", "Tokens generated for clients.",
                http.completionTokens.sum());
        return p.toString();
    }

    /** A summary: P50 and P99 over the batcher's window, and the window's sample count. */
    private static void latency(PrometheusText p, String name, String help, LatencyStats s) {
        p.family(name, "summary", help);
        p.sample(name, s.p50Millis() / 1000, "quantile", "0.5");
        p.sample(name, s.p99Millis() / 1000, "quantile", "0.99");
        p.sample(name + "_count", s.count());
    }
}
