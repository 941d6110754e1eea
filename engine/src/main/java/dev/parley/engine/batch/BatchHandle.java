package dev.parley.engine.batch;

import dev.parley.engine.generate.GenerationResult;
import java.util.concurrent.CompletableFuture;

/** A submitted request: cancel it, or wait for its result. */
public interface BatchHandle {

    /** The batcher's id of this request (increasing in submission order). */
    long id();

    /**
     * Asks the batcher to stop this request: it leaves within one step, its blocks go back to the pool and it
     * ends with {@link dev.parley.engine.generate.StopReason#CANCELLED}. Idempotent; no effect once finished.
     */
    void cancel();

    /**
     * Completes after the request's {@code Done} event with its result, or exceptionally when the batcher failed
     * it (closed, or an error in the engine).
     */
    CompletableFuture<GenerationResult> result();
}
