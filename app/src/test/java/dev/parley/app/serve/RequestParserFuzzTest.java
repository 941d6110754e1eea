package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing of the HTTP API's request bodies (Jazzer; see docs/reliability.md): any
 * bytes, for the chat and the completion endpoint, either parse into a request whose values are in
 * range or are refused with a 400 {@link ApiError} that names the problem. Anything else (another
 * exception, which the server would answer with 500, a hang, an out-of-memory) is a finding.
 */
class RequestParserFuzzTest {

    private static final RequestParser PARSER = new RequestParser(new ObjectMapper());

    @FuzzTest(maxDuration = "30s")
    void parseAnyBody(FuzzedDataProvider data) {
        boolean chat = data.consumeBoolean();
        byte[] body = data.consumeRemainingAsBytes();
        ApiRequest request;
        try {
            request = PARSER.parse(body, chat);
        } catch (ApiError refused) {
            assertEquals(400, refused.status(), refused.getMessage());
            assertFalse(refused.getMessage() == null || refused.getMessage().isBlank(), "a refusal says why");
            return;
        }
        assertEquals(chat, request.chat());
        // -1: max_tokens absent, the reply may fill the rest of the context
        assertTrue(request.maxTokens() == -1 || request.maxTokens() >= 1, "max tokens " + request.maxTokens());
        assertTrue(request.stop().size() <= RequestParser.MAX_STOP_STRINGS, "stop strings " + request.stop().size());
        if (chat) {
            assertFalse(request.messages().isEmpty(), "a chat request has messages");
        } else {
            assertTrue(request.prompt() != null, "a completion request has a prompt");
        }
    }

    /** The fuzzer's finding (CI, 2026-12-02): a top_p above 0 as a double but 0 as the sampler's float. */
    @Test
    void aTopPThatIsZeroAsAFloatIsRefusedWithA400() {
        byte[] body = "{\"prompt\":\"hi\",\"top_p\":1e-50}".getBytes(StandardCharsets.UTF_8);
        ApiError e = org.junit.jupiter.api.Assertions.assertThrows(ApiError.class, () -> PARSER.parse(body, false));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("expected 'top_p' in (0, 1] but found 1.0E-50"), e.getMessage());
    }
}
