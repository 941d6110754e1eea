package dev.parley.engine.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Server-sent events as OpenAI-compatible servers write them, and the base URLs users type. */
class SseParserTest {

    @Test
    void dataLinesAreDispatchedAtTheBlankLineThatEndsTheirEvent() {
        List<String> events = new ArrayList<>();
        SseParser sse = new SseParser(events::add);
        for (String line : List.of(": keep-alive comment", "event: message", "data: {\"a\":1}", "", "",
                "data:{\"b\":2}", "id: 7", "", "data: first", "data:  second", "", "retry: 10", "data: [DONE]")) {
            sse.line(line);
        }
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}", "first\n second"), events);
        sse.end();
        assertEquals("[DONE]", events.getLast(), "an unterminated last event still counts");
        assertEquals(4, events.size());
    }

    @Test
    void baseUrlsGetV1WhenTheyHaveNoPath() {
        assertEquals("http://127.0.0.1:8080/v1", RemoteEngine.normalize("http://127.0.0.1:8080").toString());
        assertEquals("http://127.0.0.1:8080/v1", RemoteEngine.normalize("http://127.0.0.1:8080/").toString());
        assertEquals("http://h:11434/v1", RemoteEngine.normalize(" http://h:11434/v1/ ").toString());
        assertEquals("https://api.example.com/openai/v1",
                RemoteEngine.normalize("https://api.example.com/openai/v1").toString());
        for (String bad : List.of("", "localhost:8080", "ftp://h/v1", "http://")) {
            assertThrows(IllegalArgumentException.class, () -> RemoteEngine.normalize(bad), bad);
        }
    }
}
