package dev.parley.app.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.ContextPolicy;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat three times as long as a 128-position context through the service: every turn gets a
 * reply, the outcome says when older messages left the model's memory, and the store keeps them all.
 */
class ContextOverflowServiceTest {

    private static final int CONTEXT = 128;

    @Test
    void longChatsKeepAnsweringAndSayWhenTheModelForgets(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        GenerationParams params = new GenerationParams(0, 1, 12, "Be brief.", 1, ContextPolicy.DEFAULT);
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"));
             ChatService service = new ChatService(store)) {
            service.loadModel(new ModelRequest(model, BackendKind.VECTOR, 1, CONTEXT)).get(60, TimeUnit.SECONDS);
            long id = store.create("Long").id();
            int fed = 0;
            int dropped = 0;
            int turns = 0;
            while (fed < 3 * CONTEXT) {
                TurnOutcome out = service.send(id, "Tell me about topic " + turns, false, params, e -> { })
                        .get(60, TimeUnit.SECONDS);
                assertNotEquals(StopReason.CONTEXT_FULL, out.reason(), "turn " + turns + " got its reply");
                fed += out.stats().promptTokens() + out.stats().generatedTokens();
                if (out.droppedOlderMessages()) {
                    dropped++;
                    assertTrue(out.trim().tokensAfter() <= CONTEXT / 2 || out.trim().keptMessages() == 2, out.trim().toString());
                }
                turns++;
            }
            assertTrue(dropped >= 2, "three windows of turns forget older messages at least twice: " + dropped);
            List<StoredMessage> stored = store.messages(id);
            assertEquals(2 * turns, stored.size(), "the store keeps every message, forgotten or not");
            for (int i = 0; i < stored.size(); i++) {
                assertEquals(i % 2 == 0 ? Role.USER : Role.ASSISTANT, stored.get(i).role());
            }
            assertEquals("Tell me about topic 0", stored.getFirst().content());
        }
    }
}
