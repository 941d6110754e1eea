package dev.parley.app.gui.chat;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Hands streamed text from the engine thread to the UI thread without one UI update per token:
 * pieces accumulate in an {@link AtomicReference}; only the piece that finds it empty schedules a
 * drain on the UI executor, and that drain takes everything that arrived until it ran.
 */
public final class TextCoalescer {
    private final AtomicReference<String> pending = new AtomicReference<>();
    private final AtomicInteger drains = new AtomicInteger();
    private final Executor ui;
    private final Consumer<String> sink;

    /** @param sink receives the accumulated text on the UI executor */
    public TextCoalescer(Executor ui, Consumer<String> sink) {
        this.ui = ui;
        this.sink = sink;
    }

    /** Called on the producing thread with each new piece. */
    public void offer(String piece) {
        if (piece.isEmpty()) {
            return;
        }
        String before = pending.getAndAccumulate(piece, (a, b) -> a == null ? b : a + b);
        if (before == null) {
            ui.execute(this::drain);
        }
    }

    /** Delivers whatever is pending now (on the UI thread, e.g. before the final text is set). */
    public void drain() {
        String text = pending.getAndSet(null);
        if (text != null) {
            drains.incrementAndGet();
            sink.accept(text);
        }
    }

    /** How many UI updates were made so far. */
    public int drains() {
        return drains.get();
    }
}
