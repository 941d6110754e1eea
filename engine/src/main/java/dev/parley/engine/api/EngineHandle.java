package dev.parley.engine.api;

import java.util.concurrent.CompletableFuture;

/** A running request: cancel it (a barge-in), or wait for its result. */
public interface EngineHandle {

    /** Asks the engine to stop this request; its result then ends with {@code StopReason.CANCELLED}. Idempotent. */
    void cancel();

    /** Completes when the request ends: normally, cancelled, or exceptionally when it failed. */
    CompletableFuture<EngineResult> result();
}
