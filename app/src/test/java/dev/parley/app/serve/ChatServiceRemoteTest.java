package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.service.ChatService;
import dev.parley.app.service.GenerationParams;
import dev.parley.app.service.ModelInfo;
import dev.parley.app.service.TurnLatency;
import dev.parley.app.service.TurnOutcome;
import dev.parley.app.store.ConversationStore;
import dev.parley.app.store.StoredMessage;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The app's chat service switched to a remote server ({@code parley serve}): same replies, same dashboard figures. */
class ChatServiceRemoteTest {
    private static final GenerationParams GREEDY = new GenerationParams(0, 1, 24, "Be brief.", 1);

    @Test
    void aRemoteTurnIsStoredAndTimedLikeALocalOne(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.tiny(dir), 512, "k");
             ConversationStore store = ConversationStore.open(dir.resolve("c.db"));
             ChatService service = new ChatService(store)) {
            ModelInfo info = service.connectRemote(served.baseUrl(), "k", "").get(60, TimeUnit.SECONDS);
            assertEquals("tiny", info.name());
            assertTrue(info.isRemote());
            assertEquals(served.baseUrl(), info.location());

            long id = store.create("Remote").id();
            List<TokenEvent> events = new CopyOnWriteArrayList<>();
            TurnOutcome out = service.send(id, "Hello there", false, GREEDY, events::add).get(60, TimeUnit.SECONDS);

            EngineResult expected = served.engine.chat(new ChatRequest(List.of(ChatMessage.system("Be brief."),
                    ChatMessage.user("Hello there")), SamplingSettings.greedy(), 24), e -> { })
                    .result().get(60, TimeUnit.SECONDS);
            List<StoredMessage> stored = store.messages(id);
            assertEquals(2, stored.size());
            assertEquals(expected.text().strip(), stored.get(1).content());
            assertEquals(expected.text(), RemoteEngineTest.joined(events));
            assertEquals(expected.completionTokens(), out.stats().generatedTokens());

            TurnLatency turn = service.snapshot().lastTurn().orElseThrow();
            assertEquals(expected.completionTokens(), turn.tokens());
            assertTrue(turn.promptMs() > 0 && turn.timeToFirstTokenMs() >= turn.promptMs(), turn.toString());
            assertTrue(service.snapshot().modelLoaded());

            ExecutionException wrong = assertThrows(ExecutionException.class,
                    () -> service.connectRemote(served.baseUrl(), "k", "gpt-17").get(60, TimeUnit.SECONDS));
            assertTrue(wrong.getCause().getMessage().contains("gpt-17"), wrong.getCause().getMessage());
        }
    }
}
