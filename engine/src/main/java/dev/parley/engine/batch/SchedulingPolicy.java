package dev.parley.engine.batch;

/** How the batcher forms its batches. */
public enum SchedulingPolicy {
    /**
     * Continuous (iteration-level) batching: every step holds one decode row of every generating sequence
     * plus prompt chunks of newly admitted ones; a finished sequence leaves at once and a waiting one takes its
     * place in the next step.
     */
    CONTINUOUS,
    /**
     * Static batching, the baseline: a batch is formed only when the engine is idle, from the requests waiting
     * then, and runs until its longest member ends; members that end earlier keep computing padding rows and
     * their results are delivered when the whole batch ends.
     */
    STATIC
}
