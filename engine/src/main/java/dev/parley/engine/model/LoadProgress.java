package dev.parley.engine.model;

/** Receives the progress of work done while loading a model (quantizing on load). May be called from any thread. */
@FunctionalInterface
public interface LoadProgress {

    /** Nothing is reported. */
    LoadProgress NONE = (done, total) -> { };

    /** {@code done} of {@code total} source bytes processed so far. */
    void update(long done, long total);
}
