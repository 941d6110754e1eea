package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine keeps a conversation's cache between turns by its id, although each turn sends the
 * whole conversation as messages (as the app and the voice loop do): the second turn computes only a
 * tail of its prompt.
 */
class LocalEngineTurnsTest {

    @Test
    void aSecondTurnOfAConversationReusesItsCache(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.tiny(dir), 512, null)) {
            List<ChatMessage> first = List.of(ChatMessage.system("You are a patient storyteller who answers briefly."),
                    ChatMessage.user("Tell me about the sea and the ships that sail on it."));
            EngineResult one = turn(served, "conv-1", first);
            long before = served.engine.metrics().promptTokens();
            List<ChatMessage> second = new java.util.ArrayList<>(first);
            second.add(ChatMessage.assistant(one.text().strip()));
            second.add(ChatMessage.user("And the harbours?"));
            EngineResult two = turn(served, "conv-1", second);
            long computed = served.engine.metrics().promptTokens() - before;

            // The first turn's prompt and reply ids are reused as generated (their text tokenized again need not give
            // them back): the second turn computes exactly what its first turn did not leave in the cache.
            int cached = one.promptTokens() + one.completionTokens()
                    - (one.reason() == dev.parley.engine.generate.StopReason.EOS ? 0 : 1);
            assertEquals(two.promptTokens() - cached, computed,
                    "the second turn computed " + computed + " of its " + two.promptTokens() + " prompt tokens");
        }
    }

    private static EngineResult turn(ServedModel served, String id, List<ChatMessage> messages) throws Exception {
        return served.engine.chat(new ChatRequest(id, messages, SamplingSettings.greedy(), 12, List.of()), e -> { })
                .result().get(60, TimeUnit.SECONDS);
    }
}
