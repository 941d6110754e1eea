package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.TestModels;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.ChatTemplateFamily;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A conversation three times as long as the context window (256 positions, tiny random model whose
 * vocabulary spells most text letter by letter, so a turn takes 40 to 60 tokens):
 * with the default policy every reply is produced and the model sees the system message and the
 * most recent turns, whole; with {@code STOP} replies end with CONTEXT_FULL instead.
 */
class ContextOverflowTest {

    private static final int CONTEXT = 256;
    private static final String SYSTEM = "be brief";

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = ChatTemplateFamily.class, names = {"CHATML", "LLAMA2", "ZEPHYR"})
    void keepsTheSystemMessageAndTheMostRecentTurnsThroughThreeWindows(ChatTemplateFamily family) throws Exception {
        try (LlamaModel model = LlamaModel.load(model(),
                new ModelOptions(BackendKind.VECTOR, 1));
             CachedSession session = new CachedSession(model.newSession(CONTEXT))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.of(family);
            Conversation chat = new Conversation(tokenizer, template, session, SYSTEM);
            assertEquals(ContextPolicy.DEFAULT, chat.contextPolicy());

            List<ChatMessage> everything = new ArrayList<>(); // every turn, as the user saw it
            int trims = 0;
            int turn = 0;
            while (tokensOf(tokenizer, template, everything) < 3 * CONTEXT) {
                String question = "the " + words(turn);
                GenerationResult r = chat.reply(question, Sampler.greedy(), 12, new CancellationToken(), e -> { });
                String where = family + " turn " + turn;
                assertNotEquals(StopReason.CONTEXT_FULL, r.reason(), where + ": the reply was produced");
                everything.add(ChatMessage.user(question));
                everything.add(new ChatMessage(Role.ASSISTANT, r.text().strip()));

                List<ChatMessage> kept = chat.messages();
                assertEquals(ChatMessage.system(SYSTEM), kept.getFirst(), where + ": the system message comes first");
                List<ChatMessage> turns = kept.subList(1, kept.size());
                assertEquals(0, turns.size() % 2, where + ": whole turns only");
                assertEquals(everything.subList(everything.size() - turns.size(), everything.size()), turns,
                        where + ": the most recent turns, unchanged and in order");
                assertTrue(chat.cachedTokens() <= CONTEXT, where);
                if (chat.lastTrim().isPresent()) {
                    ContextTrim trim = chat.lastTrim().orElseThrow();
                    trims++;
                    assertTrue(trim.droppedMessages() > 0 && trim.droppedMessages() % 2 == 0, where + ": " + trim);
                    assertTrue(trim.tokensAfter() <= CONTEXT / 2 || trim.keptMessages() == 2,
                            where + ": trimmed to the kept half, or to the system message and the question: " + trim);
                    assertTrue(trim.tokensBefore() + 1 > trim.tokensAfter(), where + ": " + trim);
                    assertTrue(r.reusedTokens() > 0, where + ": the system message's tokens stay in the cache");
                }
                turn++;
            }
            assertTrue(trims >= 2, family + ": three windows of conversation need at least two trims, saw " + trims);
            assertTrue(chat.messages().size() < everything.size() + 1, "older messages are gone from the model's view");
        }
    }

    @Test
    void stopPolicyEndsRepliesWhenTheWindowIsFull() throws Exception {
        try (LlamaModel model = LlamaModel.load(model(),
                new ModelOptions(BackendKind.VECTOR, 1));
             CachedSession session = new CachedSession(model.newSession(CONTEXT))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            Conversation chat = new Conversation(tokenizer, ChatTemplate.of(ChatTemplateFamily.CHATML), session, SYSTEM);
            chat.contextPolicy(ContextPolicy.STOP_WHEN_FULL);
            StopReason last = null;
            for (int turn = 0; turn < 40 && last != StopReason.CONTEXT_FULL; turn++) {
                last = chat.reply("the " + words(turn), Sampler.greedy(), 12,
                        new CancellationToken(), e -> { }).reason();
                assertTrue(chat.lastTrim().isEmpty(), "nothing is dropped");
            }
            assertEquals(StopReason.CONTEXT_FULL, last);
        }
    }

    @Test
    void policiesParseFromTheirWrittenForm() {
        assertEquals(ContextPolicy.DEFAULT, ContextPolicy.parse("keep-recent"));
        assertEquals(ContextPolicy.keepSystemAndRecent(0.7), ContextPolicy.parse("keep-recent:0.7"));
        assertEquals(ContextPolicy.STOP_WHEN_FULL, ContextPolicy.parse(" STOP "));
        for (ContextPolicy p : List.of(ContextPolicy.DEFAULT, ContextPolicy.keepSystemAndRecent(0.25),
                ContextPolicy.STOP_WHEN_FULL)) {
            assertEquals(p, ContextPolicy.parse(p.toString()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContextPolicy.parse("drop"));
        assertTrue(e.getMessage().contains("but found 'drop'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ContextPolicy.parse("keep-recent:0.95"));
        assertThrows(IllegalArgumentException.class, () -> ContextPolicy.parse("keep-recent:half"));
    }

    private Path model() throws java.io.IOException {
        return TestModels.sized(dir.resolve("tiny.gguf"), GgmlType.Q8_0, 64, 2, 96, 2 * CONTEXT);
    }

    /** The tokens of the whole conversation as if nothing were dropped. */
    private static int tokensOf(Tokenizer tokenizer, ChatTemplate template, List<ChatMessage> turns) {
        List<ChatMessage> all = new ArrayList<>();
        all.add(ChatMessage.system(SYSTEM));
        all.addAll(turns);
        return template.encodePrompt(tokenizer, all, false).length;
    }

    /** A different short phrase for each turn, in letters only (the tiny vocabulary has no digits). */
    private static String words(int n) {
        String[] w = {"red", "blue", "green", "big", "small", "old", "new", "odd"};
        return w[n % w.length] + " " + w[(n / w.length) % w.length];
    }
}
