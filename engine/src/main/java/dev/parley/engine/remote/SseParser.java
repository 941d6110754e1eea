package dev.parley.engine.remote;

import java.util.function.Consumer;

/**
 * Server-sent events, line by line, as the HTML standard's event-stream format describes: {@code data:}
 * lines of one event are joined with newlines and the event is dispatched at the blank line that ends it;
 * comment lines ({@code :}) and other fields ({@code event:}, {@code id:}, {@code retry:}) are ignored, as
 * OpenAI-compatible streams carry everything in {@code data}. Not thread-safe: one parser per stream.
 */
final class SseParser {
    private final Consumer<String> onData;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    SseParser(Consumer<String> onData) {
        this.onData = onData;
    }

    /** One line of the stream, without its line terminator. */
    void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.startsWith(":")) {
            return;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        if (!field.equals("data")) {
            return;
        }
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (hasData) {
            data.append('\n');
        }
        data.append(value);
        hasData = true;
    }

    /** The end of the stream: an event not yet ended by a blank line is dispatched too (lenient). */
    void end() {
        dispatch();
    }

    private void dispatch() {
        if (hasData) {
            String value = data.toString();
            data.setLength(0);
            hasData = false;
            onData.accept(value);
        }
    }
}
