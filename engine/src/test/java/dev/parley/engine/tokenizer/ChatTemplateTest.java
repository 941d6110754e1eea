package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Detection on the real template sources (test resources) and the exact prompts for a system
 * prompt plus two user turns. Expected strings are what Jinja2 renders from those sources with
 * Hugging Face's settings (trim_blocks, lstrip_blocks); Mistral's system-prompt folding is ours
 * (its template rejects a system role).
 */
class ChatTemplateTest {

    private static final List<ChatMessage> CONVERSATION = List.of(
            ChatMessage.system("You are a helpful assistant."),
            ChatMessage.user("Hello!"),
            ChatMessage.assistant(" Hi, how can I help? "),
            ChatMessage.user("What is 2+2?"));

    @ParameterizedTest
    @CsvSource({
            "smollm2-instruct.jinja, CHATML",
            "qwen2.5-instruct.jinja, CHATML",
            "llama3-instruct.jinja, LLAMA3",
            "llama3.2-instruct.jinja, LLAMA3",
            "llama2-chat.jinja, LLAMA2",
            "mistral-7b-instruct-v0.2.jinja, MISTRAL",
            "tinyllama-chat.jinja, ZEPHYR",
            "qwen3.jinja, QWEN3",
            "gemma3-it.jinja, GEMMA",
            "phi3.5-mini-instruct.jinja, PHI3"})
    void detectsFamiliesFromRealTemplates(String resource, ChatTemplateFamily family) throws IOException {
        ChatTemplate template = ChatTemplate.detect(source(resource));
        assertEquals(family, template.family());
        assertFalse(template.isFallback());
    }

    @Test
    void unknownOrMissingTemplatesFallBackToChatMl() {
        for (String source : Arrays.asList(null, "", "  ", "{{ messages }}", "{% for m in messages %}<|im_start|><|im_sep|>{% endfor %}")) {
            ChatTemplate template = ChatTemplate.detect(source);
            assertEquals(ChatTemplateFamily.CHATML, template.family(), String.valueOf(source));
            assertTrue(template.isFallback(), String.valueOf(source));
        }
        assertFalse(ChatTemplate.of(ChatTemplateFamily.CHATML).isFallback());
        assertEquals(ChatTemplateFamily.ZEPHYR, ChatTemplate.detect("zephyr").family());
    }

    @Test
    void phi3TemplateFromTheFixtureIsPhi3AndRendersAsItsJinja() throws IOException {
        try (GgufFile gguf = GgufFile.open(SharedFixtures.require("tokenizer/ggml-vocab-phi-3.gguf"))) {
            ChatTemplate template = ChatTemplate.detect(gguf.getString("tokenizer.chat_template"));
            assertEquals(ChatTemplateFamily.PHI3, template.family(), "Phi-3's <|user|>/<|end|> is not Zephyr");
            assertFalse(template.isFallback());
            assertTrue(template.includesBos(), "this template writes {{ bos_token }} itself");
            // @huggingface/jinja's render of the fixture's template (render.mjs, bos_token <s>).
            assertEquals("<s><|user|>\nHello!<|end|>\n<|assistant|>\n Hi, how can I help? <|end|>\n<|user|>\n"
                    + "What is 2+2?<|end|>\n<|assistant|>\n", template.render(CONVERSATION.subList(1, 4), true));
            // This early Phi-3 template drops system messages; Parley keeps them as Phi-3.5 (and llama.cpp) do.
            assertTrue(template.render(CONVERSATION, true).startsWith("<s><|system|>\nYou are a helpful assistant.<|end|>\n"));
        }
    }

    /** @huggingface/jinja's renders of the real templates (templates/render.mjs). */
    @Test
    void qwen3IsChatMlWithAThinkingSwitchOffByDefault() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("qwen3.jinja"));
        assertEquals(ChatTemplateFamily.QWEN3, template.family());
        assertFalse(template.thinking(), "thinking is off unless asked for");
        String turns = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello!<|im_end|>\n"
                + "<|im_start|>assistant\n Hi, how can I help? <|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n";
        // enable_thinking=false
        assertEquals(turns + "<|im_start|>assistant\n<think>\n\n</think>\n\n", template.render(CONVERSATION, true));
        // enable_thinking left undefined: the model thinks
        assertEquals(turns + "<|im_start|>assistant\n", template.withThinking(true).render(CONVERSATION, true));
        assertEquals(turns, template.render(CONVERSATION, false));
        List<ChatMessage> thought = List.of(ChatMessage.user("Hello!"),
                ChatMessage.assistant("<think>\nThe user greets me.\n</think>\n\nHi!"));
        // The last answer keeps its reasoning; once a user message follows, an earlier answer loses it.
        assertEquals("<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n<think>\nThe user greets me.\n"
                + "</think>\n\nHi!<|im_end|>\n", template.render(thought, false));
        List<ChatMessage> next = new java.util.ArrayList<>(thought);
        next.add(ChatMessage.user("And?"));
        assertEquals("<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\nHi!<|im_end|>\n<|im_start|>user\n"
                + "And?<|im_end|>\n<|im_start|>assistant\n", template.withThinking(true).render(next, true));
        assertEquals("<|im_end|>", template.endOfTurn());
        assertFalse(template.includesBos());
    }

    @Test
    void gemmaFoldsTheSystemPromptIntoTheFirstUserTurn() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("gemma3-it.jinja"));
        assertEquals(ChatTemplateFamily.GEMMA, template.family());
        String turns = "<bos><start_of_turn>user\nYou are a helpful assistant.\n\nHello!<end_of_turn>\n"
                + "<start_of_turn>model\nHi, how can I help?<end_of_turn>\n<start_of_turn>user\nWhat is 2+2?<end_of_turn>\n";
        assertEquals(turns + "<start_of_turn>model\n", template.render(CONVERSATION, true));
        assertEquals(turns, template.render(CONVERSATION, false));
        assertEquals("<bos><start_of_turn>user\nHello!<end_of_turn>\n<start_of_turn>model\nHi, how can I help?"
                + "<end_of_turn>\n<start_of_turn>user\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n",
                template.render(CONVERSATION.subList(1, 4), true));
        assertTrue(template.includesBos());
        assertEquals("<end_of_turn>", template.endOfTurn());
        assertTrue(template.stopStrings().contains("<end_of_turn>"));
    }

    @Test
    void phi35RendersSystemUserAndAssistantTurns() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("phi3.5-mini-instruct.jinja"));
        assertEquals(ChatTemplateFamily.PHI3, template.family());
        String turns = "<|system|>\nYou are a helpful assistant.<|end|>\n<|user|>\nHello!<|end|>\n<|assistant|>\n"
                + " Hi, how can I help? <|end|>\n<|user|>\nWhat is 2+2?<|end|>\n";
        assertEquals(turns + "<|assistant|>\n", template.render(CONVERSATION, true));
        // The template appends eos_token without a generation prompt; Parley does not (the rendering of a
        // conversation must stay a prefix of the next one), so the rest is the same.
        assertEquals(turns, template.render(CONVERSATION, false));
        assertFalse(template.includesBos(), "Phi-3.5's template leaves BOS to the tokenizer");
        assertEquals("<|end|>", template.endOfTurn());
    }

    @Test
    void chatMlAsQwenAndSmolLmRenderIt() throws IOException {
        String expected = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello!<|im_end|>\n"
                + "<|im_start|>assistant\n Hi, how can I help? <|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n";
        for (String resource : List.of("qwen2.5-instruct.jinja", "smollm2-instruct.jinja")) {
            ChatTemplate template = ChatTemplate.detect(source(resource));
            assertEquals(expected + "<|im_start|>assistant\n", template.render(CONVERSATION, true), resource);
            assertEquals(expected, template.render(CONVERSATION, false), resource);
        }
        assertEquals(List.of("<|im_end|>", "<|im_start|>", "<|endoftext|>"), ChatTemplate.of(ChatTemplateFamily.CHATML).stopStrings());
    }

    @Test
    void chatMlInsertsTheModelsDefaultSystemPrompt() throws IOException {
        String rest = "<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n Hi, how can I help? <|im_end|>\n"
                + "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n";
        assertEquals("<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n" + rest,
                ChatTemplate.detect(source("qwen2.5-instruct.jinja")).render(CONVERSATION.subList(1, 4), true));
        assertEquals("<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n" + rest,
                ChatTemplate.detect(source("smollm2-instruct.jinja")).render(CONVERSATION.subList(1, 4), true));
        assertEquals(rest, ChatTemplate.of(ChatTemplateFamily.CHATML).render(CONVERSATION.subList(1, 4), true));
    }

    @Test
    void llama3() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("llama3-instruct.jinja"));
        String expected = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant.<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nHello!<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\nHi, how can I help?<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>";
        assertEquals(expected + "<|start_header_id|>assistant<|end_header_id|>\n\n", template.render(CONVERSATION, true));
        assertEquals(expected, template.render(CONVERSATION, false));
        assertTrue(template.includesBos());
        assertEquals("<|eot_id|>", template.endOfTurn());
    }

    @Test
    void llama32AddsItsDateHeaderToTheSystemTurn() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("llama3.2-instruct.jinja"));
        String header = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\n"
                + "Today Date: 26 Jul 2024\n\n";
        String turns = "<|start_header_id|>user<|end_header_id|>\n\nHello!<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\nHi, how can I help?<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n";
        assertEquals(header + "You are a helpful assistant.<|eot_id|>" + turns, template.render(CONVERSATION, true));
        assertEquals(header + "<|eot_id|>" + turns, template.render(CONVERSATION.subList(1, 4), true));
    }

    @Test
    void llama2() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("llama2-chat.jinja"));
        String expected = "<s>[INST] <<SYS>>\nYou are a helpful assistant.\n<</SYS>>\n\nHello! [/INST] Hi, how can I help? </s>"
                + "<s>[INST] What is 2+2? [/INST]";
        assertEquals(expected, template.render(CONVERSATION, true));
        assertEquals(expected, template.render(CONVERSATION, false), "the user turn already ends with [/INST]");
        assertEquals("<s>[INST] Hello! [/INST] Hi, how can I help? </s><s>[INST] What is 2+2? [/INST]",
                template.render(CONVERSATION.subList(1, 4), true));
    }

    @Test
    void mistralFoldsTheSystemPromptIntoTheFirstUserTurn() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("mistral-7b-instruct-v0.2.jinja"));
        assertEquals("<s>[INST] You are a helpful assistant.\n\nHello! [/INST] Hi, how can I help? </s>[INST] What is 2+2? [/INST]",
                template.render(CONVERSATION, true));
        // without a system prompt this is exactly the model's template output
        assertEquals("<s>[INST] Hello! [/INST] Hi, how can I help? </s>[INST] What is 2+2? [/INST]",
                template.render(CONVERSATION.subList(1, 4), true));
        assertEquals(List.of("</s>", "[INST]"), template.stopStrings());
    }

    @Test
    void zephyrAsTinyLlamaRendersIt() throws IOException {
        ChatTemplate template = ChatTemplate.detect(source("tinyllama-chat.jinja"));
        String expected = "<|system|>\nYou are a helpful assistant.</s>\n<|user|>\nHello!</s>\n<|assistant|>\n Hi, how can I help? </s>\n"
                + "<|user|>\nWhat is 2+2?</s>\n";
        assertEquals(expected + "<|assistant|>\n", template.render(CONVERSATION, true));
        assertEquals(expected, template.render(CONVERSATION, false));
        assertFalse(template.includesBos());
    }

    @Test
    void llama2PromptTokenizesWithOneBosPerTurnAndParsedEos() throws IOException {
        try (GgufFile gguf = GgufFile.open(SharedFixtures.require("tokenizer/ggml-vocab-llama-spm.gguf"))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(gguf);
            ChatTemplate template = ChatTemplate.of(ChatTemplateFamily.LLAMA2);
            int[] ids = template.encodePrompt(tokenizer, CONVERSATION, true);
            assertEquals(1, ids[0]);
            assertEquals(2, Arrays.stream(ids).filter(id -> id == 1).count(), "one <s> per user turn, none added");
            assertEquals(1, Arrays.stream(ids).filter(id -> id == 2).count(), "</s> parsed as the EOS token");
            // the text between special tokens is tokenized like plain text that follows a special token
            int[] first = tokenizer.encode("[INST] <<SYS>>", false, false); // space prefix added, as after a special token
            assertArrayEquals(first, Arrays.copyOfRange(ids, 1, 1 + first.length));
        }
    }

    private static String source(String resource) throws IOException {
        try (InputStream in = ChatTemplateTest.class.getResourceAsStream("templates/" + resource)) {
            if (in == null) {
                throw new IOException("missing test resource templates/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
