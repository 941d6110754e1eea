package dev.parley.engine.backend;

/** Work on the half-open range {@code [from, to)}, run by thread number {@code thread} (0 = the caller). */
@FunctionalInterface
public interface ParallelTask {
    void run(int from, int to, int thread);
}
