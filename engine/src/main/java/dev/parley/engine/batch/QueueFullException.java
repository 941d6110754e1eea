package dev.parley.engine.batch;

/** {@link Batcher#submit} found the waiting queue at its bound; the caller may retry later. */
public final class QueueFullException extends RuntimeException {

    public QueueFullException(int bound) {
        super("the batcher's queue is full: " + bound + " requests are already waiting; try again later");
    }
}
