package dev.parley.app.serve;

import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.api.RunnerStats;
import java.util.Map;

/** {@code GET /metrics}: the engine's batching figures and the server's request counts, as Prometheus text. */
final class MetricsEndpoint {
    private final LocalEngine engine;
    private final HttpMetrics http;

    MetricsEndpoint(LocalEngine engine, HttpMetrics http) {
        this.engine = engine;
        this.http = http;
    }

    String render() {
        PrometheusText p = new PrometheusText();
        RunnerStats s = engine.stats();
        p.single("parley_batch_queued_requests", "gauge", "Requests waiting for the engine.", s.queued());
        p.single("parley_batch_running_sequences", "gauge", "Sequences being generated.", s.running());
        p.single("parley_batch_max_sequences_in_step", "gauge", "Most sequences that ran together in one step.",
                s.maxSequencesInStep());
        p.single("parley_batch_completed_total", "counter", "Requests that ended other than by cancellation.",
                s.completed());
        p.single("parley_batch_cancelled_total", "counter", "Requests cancelled (client gone or barge-in).",
                s.cancelled());
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
}
