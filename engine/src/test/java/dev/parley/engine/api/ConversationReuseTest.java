package dev.parley.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.TestModels;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.ChatTemplateFamily;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A local engine reuses a conversation's own token ids between turns, and only where the text allows it. */
class ConversationReuseTest {

    static final String[] USER = {"Hello there", "What is the weather like?", "Tell me more", "Why?", "Thanks"};

    @TempDir
    Path dir;

    static EngineResult turn(LocalEngine engine, String conversation, List<ChatMessage> messages, int maxTokens)
            throws Exception {
        return engine.chat(new ChatRequest(conversation, messages, SamplingSettings.greedy(), maxTokens, List.of()),
                e -> { }).result().get(120, TimeUnit.SECONDS);
    }

    static ChatMessage assistant(String text) {
        return new ChatMessage(Role.ASSISTANT, text);
    }

    /** Prompt rows the batcher computed while {@code run} ran. */
    static long computed(LocalEngine engine, ThrowingRun run) throws Exception {
        long before = engine.metrics().promptTokens();
        run.run();
        return engine.metrics().promptTokens() - before;
    }

    interface ThrowingRun {
        void run() throws Exception;
    }

    @Test
    void everyTurnComputesOnlyItsNewTokensOnARandomModel() throws Exception {
        Path file = TestModels.sized(dir.resolve("tiny.gguf"), GgmlType.Q8_0, 64, 2, 96, 1024);
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1));
             LocalEngine engine = new LocalEngine(model, Tokenizer.fromGguf(model.gguf()),
                     ChatTemplate.of(ChatTemplateFamily.CHATML), "tiny", 512)) {
            List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.system("Be brief.")));
            EngineResult previous = null;
            for (int k = 0; k < USER.length; k++) {
                messages.add(ChatMessage.user(USER[k]));
                EngineResult[] r = new EngineResult[1];
                long rows = computed(engine, () -> r[0] = turn(engine, "c", messages, 6));
                if (previous == null) {
                    assertEquals(r[0].promptTokens(), rows, "the first turn computes its whole prompt");
                } else {
                    // Cached: the previous prompt and every reply token fed (the last one sampled is fed only now).
                    int cached = previous.promptTokens() + previous.completionTokens()
                            - (previous.reason() == StopReason.EOS ? 0 : 1);
                    assertEquals(r[0].promptTokens() - cached, rows, "turn " + k + " computes only its new tokens");
                }
                messages.add(assistant(r[0].text()));
                previous = r[0];
            }
        }
    }

    @Test
    void anEditedHistoryFallsBackToFullTokenizationAndAnswersAsAFreshEngine() throws Exception {
        Path file = TestModels.sized(dir.resolve("tiny.gguf"), GgmlType.Q8_0, 64, 2, 96, 1024);
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.of(ChatTemplateFamily.CHATML);
            List<ChatMessage> edited;
            EngineResult reused;
            try (LocalEngine engine = new LocalEngine(model, tokenizer, template, "tiny", 512)) {
                List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.system("Be brief."),
                        ChatMessage.user(USER[0])));
                messages.add(assistant(turn(engine, "c", messages, 6).text()));
                messages.add(ChatMessage.user(USER[1]));
                messages.add(assistant(turn(engine, "c", messages, 6).text()));
                edited = new ArrayList<>(messages);
                edited.set(1, ChatMessage.user("Good morning")); // the first user message changed
                edited.add(ChatMessage.user(USER[2]));
                reused = turn(engine, "c", edited, 12);
                // The full tokenization of the edited chat is what the engine fed.
                assertEquals(template.encodePrompt(tokenizer, edited, true).length, reused.promptTokens());
            }
            try (LocalEngine fresh = new LocalEngine(model, tokenizer, template, "tiny", 512)) {
                EngineResult alone = turn(fresh, "c", edited, 12);
                assertEquals(alone.text(), reused.text());
                assertEquals(alone.completionTokens(), reused.completionTokens());
            }
        }
    }

    @Test
    void anotherConversationNeverTakesTheIds() throws Exception {
        Path file = TestModels.sized(dir.resolve("tiny.gguf"), GgmlType.Q8_0, 64, 2, 96, 1024);
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1));
             LocalEngine engine = new LocalEngine(model, Tokenizer.fromGguf(model.gguf()),
                     ChatTemplate.of(ChatTemplateFamily.CHATML), "tiny", 512)) {
            List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.user(USER[0])));
            String reply = turn(engine, "a", messages, 6).text();
            messages.add(assistant(reply));
            messages.add(ChatMessage.user(USER[1]));
            // Same text, other conversation: tokenized whole, as the template says.
            EngineResult other = turn(engine, "b", messages, 6);
            assertEquals(engine.chatPrompt(messages).length, other.promptTokens());
        }
    }

    /**
     * On real tokenizers, where tokenizing a reply gives back the ids generated, reuse changes no output: five
     * turns of one conversation answer exactly as a fresh engine given the whole chat each time.
     */
    @ParameterizedTest
    @ValueSource(strings = {"m3-llama-gpt2-tied-q8_0", "m7-llama-bpe-tied-q6_k", "m1-llama-spm-q8_0"})
    void greedyRepliesOnFixtureModelsEqualAFreshEngines(String name) throws Exception {
        Path file = SharedFixtures.require("parity/" + name + ".gguf");
        try (LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 1))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
            List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.system("Be brief.")));
            try (LocalEngine engine = new LocalEngine(model, tokenizer, template, name, 512)) {
                long reusedRows = 0;
                long fullRows = 0;
                for (int k = 0; k < 4; k++) {
                    messages.add(ChatMessage.user(USER[k]));
                    EngineResult[] r = new EngineResult[1];
                    reusedRows += computed(engine, () -> r[0] = turn(engine, "c", messages, 8));
                    fullRows += r[0].promptTokens();
                    try (LocalEngine fresh = new LocalEngine(model, tokenizer, template, name, 512)) {
                        EngineResult alone = turn(fresh, null, messages, 8);
                        assertEquals(alone.text(), r[0].text(), name + " turn " + k);
                        assertEquals(alone.completionTokens(), r[0].completionTokens(), name + " turn " + k);
                    }
                    messages.add(assistant(r[0].text()));
                }
                assertTrue(reusedRows < fullRows, name + ": " + reusedRows + " of " + fullRows + " prompt rows computed");
            }
        }
    }
}
