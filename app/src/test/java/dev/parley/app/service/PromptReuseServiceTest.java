package dev.parley.app.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.store.ConversationStore;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's turns (ChatService over the local engine's batcher) compute only their new prompt tokens, turn after
 * turn, on a synthesized model whose tokenizer rarely gives back the ids it generated.
 */
class PromptReuseServiceTest {
    private static final GenerationParams GREEDY = new GenerationParams(0, 1, 12, "Be brief.", 1);
    private static final String[] USER = {"Hello there", "What is the weather like?", "Tell me more", "Why is that?",
        "Thanks, bye"};
    /** Replies whose cache does not end on a KV block boundary (blocks of 16) in the speculation test. */
    private static final GenerationParams SHORT = new GenerationParams(0, 1, 9, "Be brief.", 1);

    /** Prompt positions the previous turn left in its conversation's cache: the last sampled token is not fed. */
    private static int cachedAfter(TurnOutcome t) {
        return t.stats().promptTokens() + t.stats().generatedTokens() - (t.reason() == StopReason.EOS ? 0 : 1);
    }

    @Test
    void fiveTurnsEachComputeOnlyTheirNewTokens(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"));
             ChatService service = new ChatService(store)) {
            service.loadModel(new ModelRequest(model, BackendKind.VECTOR, 1, 2048)).get(60, TimeUnit.SECONDS);
            long id = store.create("Reuse").id();
            TurnOutcome previous = null;
            List<Long> rows = new ArrayList<>();
            for (int k = 0; k < USER.length; k++) {
                long before = service.promptTokensComputed();
                TurnOutcome t = service.send(id, USER[k], false, GREEDY, e -> { }).get(60, TimeUnit.SECONDS);
                long computed = service.promptTokensComputed() - before;
                rows.add(computed);
                if (previous == null) {
                    assertEquals(t.stats().promptTokens(), computed, "the first turn computes its whole prompt");
                } else {
                    int fresh = t.stats().promptTokens() - cachedAfter(previous);
                    int sincePrompt = t.stats().promptTokens() - previous.stats().promptTokens();
                    System.out.println("turn " + k + ": computed " + computed + " of " + t.stats().promptTokens()
                            + " prompt tokens, new " + fresh);
                    // At the least the previous prompt and part of its reply come from the cache (before the engine
                    // kept the reply's ids, every reply was tokenized again and computed again: sincePrompt rows).
                    assertTrue(computed >= fresh && computed < sincePrompt, "turn " + k + " computed " + computed
                            + " prompt tokens of " + t.stats().promptTokens() + ": new " + fresh
                            + ", since the previous prompt " + sincePrompt + "; per turn: " + rows);
                }
                previous = t;
            }
        }
    }

    @Test
    void theSecondTurnOfAConversationBegunSpeculativelyReusesTheFirst(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        try (ConversationStore store = ConversationStore.open(dir.resolve("s.db"));
             ChatService service = new ChatService(store)) {
            service.loadModel(new ModelRequest(model, BackendKind.VECTOR, 1, 2048)).get(60, TimeUnit.SECONDS);
            // The window's first spoken turn: answered before it is heard, in a conversation created only then.
            CompletableFuture<Long> heard = new CompletableFuture<>();
            CompletableFuture<Optional<TurnOutcome>> first = service.speculate(-1, USER[0], SHORT, heard, e -> { });
            heard.complete(store.create("Spoken").id());
            TurnOutcome one = first.get(60, TimeUnit.SECONDS).orElseThrow();
            long id = one.user().conversationId();
            long before = service.promptTokensComputed();
            TurnOutcome two = service.send(id, USER[1], false, SHORT, e -> { }).get(60, TimeUnit.SECONDS);
            long computed = service.promptTokensComputed() - before;
            int sincePrompt = two.stats().promptTokens() - one.stats().promptTokens();
            assertTrue(computed >= two.stats().promptTokens() - cachedAfter(one) && computed < sincePrompt,
                    "the second turn computed " + computed + " of " + two.stats().promptTokens() + " prompt tokens ("
                    + sincePrompt + " since the first prompt): the first reply's ids were not reused");
        }
    }

    @Test
    void aWithdrawnSpeculativeTurnLeavesTheNextTurnsReuseIntact(@TempDir Path dir) throws Exception {
        Path model = TestModels.tiny(dir);
        long withSpeculation = thirdTurnComputed(dir, model, "a.db", true);
        long without = thirdTurnComputed(dir, model, "b.db", false);
        assertTrue(withSpeculation <= without, "after a withdrawn speculative turn the next turn computed "
                + withSpeculation + " prompt tokens, without one " + without);
    }

    /** Prompt tokens the third turn computes, after a withdrawn speculative turn or none. */
    private static long thirdTurnComputed(Path dir, Path model, String db, boolean speculate) throws Exception {
        try (ConversationStore store = ConversationStore.open(dir.resolve(db));
             ChatService service = new ChatService(store)) {
            service.loadModel(new ModelRequest(model, BackendKind.VECTOR, 1, 2048)).get(60, TimeUnit.SECONDS);
            long id = store.create("Speculation").id();
            service.send(id, USER[0], false, SHORT, e -> { }).get(60, TimeUnit.SECONDS);
            TurnOutcome second = service.send(id, USER[1], false, SHORT, e -> { }).get(60, TimeUnit.SECONDS);
            if (speculate) {
                // The user went on speaking: the speculative reply is withdrawn after its first token.
                CompletableFuture<Long> heard = new CompletableFuture<>();
                Optional<TurnOutcome> withdrawn = service.speculate(id, "Tell me", SHORT, heard, e -> {
                    if (e instanceof TokenEvent.Token) {
                        heard.complete(-1L);
                    }
                }).get(60, TimeUnit.SECONDS);
                assertTrue(withdrawn.isEmpty(), "nothing is stored for a withdrawn turn");
                assertEquals(4, store.messages(id).size());
            }
            long before = service.promptTokensComputed();
            TurnOutcome third = service.send(id, USER[2], false, SHORT, e -> { }).get(60, TimeUnit.SECONDS);
            long computed = service.promptTokensComputed() - before;
            int fresh = third.stats().promptTokens() - cachedAfter(second);
            assertTrue(cachedAfter(second) % 16 != 0, "the cache ends inside a block");
            System.out.println("third turn, " + (speculate ? "after a withdrawn speculation" : "alone") + ": computed "
                    + computed + " of " + third.stats().promptTokens() + " prompt tokens, new " + fresh);
            int sincePrompt = third.stats().promptTokens() - second.stats().promptTokens();
            assertTrue(computed >= 1 && computed < sincePrompt, "the third turn computed " + computed + " of "
                    + third.stats().promptTokens() + " prompt tokens; its new tokens are " + fresh);
            return computed;
        }
    }
}
