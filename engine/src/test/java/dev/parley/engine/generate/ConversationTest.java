package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.ChatTemplateFamily;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Multi-turn chat on one KV cache, on the parity model m1 with the ChatML template. */
class ConversationTest {

    @Test
    void laterTurnsReuseTheCachedConversationAndResetKeepsTheSystemMessage() throws IOException {
        try (LlamaModel model = LlamaModel.load(SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf"),
                new ModelOptions(BackendKind.VECTOR, 1));
             CachedSession session = new CachedSession(model.newSession(512))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.of(ChatTemplateFamily.CHATML);
            Conversation chat = new Conversation(tokenizer, template, session, "Be brief.");
            Sampler greedy = Sampler.greedy();

            GenerationResult first = chat.reply("Hello!", greedy, 5, new CancellationToken(), e -> { });
            int firstPrompt = template.encodePrompt(tokenizer,
                    List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hello!")), true).length;
            assertEquals(0, first.reusedTokens());
            assertEquals(firstPrompt, first.stats().promptTokens());
            assertEquals(5, first.tokens().length);
            assertEquals(firstPrompt + 4, chat.cachedTokens(), "prompt + all but the last new token are cached");

            int cachedBefore = chat.cachedTokens();
            GenerationResult second = chat.reply("And then?", greedy, 5, new CancellationToken(), e -> { });
            assertEquals(cachedBefore, second.reusedTokens(), "the whole cache (prompt and answer) is reused");
            String added = template.render(List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hello!"),
                    new ChatMessage(Role.ASSISTANT, first.text().strip()), ChatMessage.user("And then?")), true)
                    .substring(template.render(List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hello!"),
                            new ChatMessage(Role.ASSISTANT, first.text().strip())), false).length());
            assertEquals(1 + tokenizer.encode(added, false, true).length, second.stats().promptTokens(),
                    "only the last answer token and the new turn's tokens are fed");
            List<ChatMessage> messages = chat.messages();
            assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT),
                    messages.stream().map(ChatMessage::role).toList());
            assertEquals(first.text().strip(), messages.get(2).content());

            // The same conversation again from a fresh start gives the same answer (greedy), reusing the cache.
            chat.reset();
            assertEquals(List.of(ChatMessage.system("Be brief.")), chat.messages());
            GenerationResult again = chat.reply("Hello!", greedy, 5, new CancellationToken(), e -> { });
            assertEquals(firstPrompt - 1, again.reusedTokens(), "everything but the last prompt token is cached");
            assertArrayEquals(first.tokens(), again.tokens());
        }
    }
}
