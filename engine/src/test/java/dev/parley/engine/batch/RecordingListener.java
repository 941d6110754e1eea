package dev.parley.engine.batch;

import dev.parley.engine.generate.TokenEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Keeps every event of one request, for checking the stream against the result. Thread-safe. */
final class RecordingListener implements Consumer<TokenEvent> {
    private final List<TokenEvent> events = new ArrayList<>();

    @Override
    public synchronized void accept(TokenEvent e) {
        events.add(e);
    }

    synchronized int[] tokenIds() {
        return events.stream().filter(e -> e instanceof TokenEvent.Token).mapToInt(e -> ((TokenEvent.Token) e).id())
                .toArray();
    }

    synchronized String text() {
        StringBuilder b = new StringBuilder();
        for (TokenEvent e : events) {
            if (e instanceof TokenEvent.Token t) {
                b.append(t.text());
            } else if (e instanceof TokenEvent.Text t) {
                b.append(t.text());
            }
        }
        return b.toString();
    }

    synchronized long doneCount() {
        return events.stream().filter(e -> e instanceof TokenEvent.Done).count();
    }

    synchronized boolean doneIsLast() {
        return !events.isEmpty() && events.getLast() instanceof TokenEvent.Done;
    }
}
