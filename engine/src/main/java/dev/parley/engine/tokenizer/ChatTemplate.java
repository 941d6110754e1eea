package dev.parley.engine.tokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Renders a conversation into the prompt text a model was trained on, for the families in
 * {@link ChatTemplateFamily}. {@link #detect(String)} recognises a GGUF
 * {@code tokenizer.chat_template} (Jinja source) by distinctive substrings, as llama.cpp's
 * {@code llm_chat_detect_template} does; it is not a Jinja interpreter. The output matches what the
 * models' own templates render (Hugging Face settings: {@code trim_blocks}, {@code lstrip_blocks}).
 *
 * <p>How to tokenize the result: {@code tokenizer.encode(text, !includesBos(), true)}, i.e.
 * parse special tokens, and let the tokenizer add BOS only when the template did not write it
 * ({@link #encodePrompt} does exactly that).
 *
 * <p>Immutable.
 */
public final class ChatTemplate {

    /** The date that Llama 3.1+ templates print when no {@code strftime_now} is available. */
    static final String LLAMA31_DEFAULT_DATE = "26 Jul 2024";

    private final ChatTemplateFamily family;
    private final boolean fallback;
    private final String defaultSystemPrompt;
    private final String llamaDate;
    private final boolean thinking;
    private final String bosText;

    ChatTemplate(ChatTemplateFamily family, boolean fallback, String defaultSystemPrompt, String llamaDate) {
        this(family, fallback, defaultSystemPrompt, llamaDate, false, defaultBos(family));
    }

    private ChatTemplate(ChatTemplateFamily family, boolean fallback, String defaultSystemPrompt, String llamaDate,
                         boolean thinking, String bosText) {
        this.family = Objects.requireNonNull(family, "family");
        this.fallback = fallback;
        this.defaultSystemPrompt = defaultSystemPrompt;
        this.llamaDate = llamaDate;
        this.thinking = thinking;
        this.bosText = bosText;
    }

    /** The BOS text a family's template writes itself, or null when the tokenizer adds BOS (or none). */
    private static String defaultBos(ChatTemplateFamily family) {
        return switch (family) {
            case LLAMA3 -> "<|begin_of_text|>";
            case LLAMA2, MISTRAL -> "<s>";
            case GEMMA -> "<bos>";
            default -> null;
        };
    }

    /** A Phi-3 template whose source writes {@code bos_token} ({@code <s>}) at its start, or not. */
    static ChatTemplate phi3(boolean writesBos) {
        return new ChatTemplate(ChatTemplateFamily.PHI3, false, null, null, false, writesBos ? "<s>" : null);
    }

    /**
     * This template with the model's thinking on or off (Qwen3's {@code enable_thinking}). Parley's default is off:
     * a voice reply must start at once and never speak its reasoning. Families without thinking ignore it.
     */
    public ChatTemplate withThinking(boolean on) {
        return new ChatTemplate(family, fallback, defaultSystemPrompt, llamaDate, on, bosText);
    }

    /** Whether the model is let think before answering (only {@link ChatTemplateFamily#QWEN3} has the switch). */
    public boolean thinking() {
        return thinking && family == ChatTemplateFamily.QWEN3;
    }

    /**
     * The template a model's Jinja source stands for; never throws. Unknown or missing sources give
     * ChatML with {@link #isFallback()} true (and a warning on the logger). Family names
     * ({@code chatml}, {@code llama3}, {@code llama2}, {@code mistral}, {@code zephyr}) are accepted too.
     */
    public static ChatTemplate detect(String jinjaSourceOrNull) {
        return ChatTemplateDetector.detect(jinjaSourceOrNull);
    }

    /** The plain template of a family (Llama 3 without the 3.1 date header, ChatML without a default system prompt). */
    public static ChatTemplate of(ChatTemplateFamily family) {
        return new ChatTemplate(family, false, null, null);
    }

    public ChatTemplateFamily family() {
        return family;
    }

    /** True when the source was not recognised and ChatML is a guess. */
    public boolean isFallback() {
        return fallback;
    }

    /** The system prompt the model's template inserts when the conversation has none (e.g. Qwen2.5, SmolLM2). */
    public Optional<String> defaultSystemPrompt() {
        return Optional.ofNullable(defaultSystemPrompt);
    }

    /** True when {@link #render} writes the BOS token text itself (then encode with {@code addSpecial = false}). */
    public boolean includesBos() {
        return bosText != null;
    }

    /** The text of the token that ends an assistant turn in this format. */
    public String endOfTurn() {
        return switch (family) {
            case CHATML, QWEN3 -> "<|im_end|>";
            case LLAMA3 -> "<|eot_id|>";
            case LLAMA2, MISTRAL, ZEPHYR -> "</s>";
            case GEMMA -> "<end_of_turn>";
            case PHI3 -> "<|end|>";
        };
    }

    /**
     * Strings that end the assistant's reply when they appear in generated text: the end-of-turn
     * token text and the markers that would start another turn.
     */
    public List<String> stopStrings() {
        return switch (family) {
            case CHATML, QWEN3 -> List.of("<|im_end|>", "<|im_start|>", "<|endoftext|>");
            case GEMMA -> List.of("<end_of_turn>", "<start_of_turn>", "<eos>");
            case PHI3 -> List.of("<|end|>", "<|user|>", "<|endoftext|>", "<|assistant|>");
            case LLAMA3 -> List.of("<|eot_id|>", "<|end_of_text|>", "<|start_header_id|>");
            case LLAMA2, MISTRAL -> List.of("</s>", "[INST]");
            case ZEPHYR -> List.of("</s>", "<|user|>", "<|system|>", "<|assistant|>");
        };
    }

    /**
     * The prompt for {@code messages}; with {@code addGenerationPrompt}, followed by the header that
     * opens the assistant's reply (formats whose user turn already ends that way add nothing).
     */
    public String render(List<ChatMessage> messages, boolean addGenerationPrompt) {
        Objects.requireNonNull(messages, "messages");
        StringBuilder out = new StringBuilder();
        switch (family) {
            case CHATML -> renderChatMl(messages, addGenerationPrompt, out);
            case LLAMA3 -> renderLlama3(messages, addGenerationPrompt, out);
            case LLAMA2 -> renderLlama2(messages, out);
            case MISTRAL -> renderMistral(messages, out);
            case ZEPHYR -> renderZephyr(messages, addGenerationPrompt, out);
            case QWEN3 -> renderQwen3(messages, addGenerationPrompt, out);
            case GEMMA -> renderGemma(messages, addGenerationPrompt, out);
            case PHI3 -> renderPhi3(messages, addGenerationPrompt, out);
        }
        return out.toString();
    }

    /** Renders and tokenizes: special tokens parsed, BOS added by the tokenizer only if the template has none. */
    public int[] encodePrompt(Tokenizer tokenizer, List<ChatMessage> messages, boolean addGenerationPrompt) {
        return tokenizer.encode(render(messages, addGenerationPrompt), !includesBos(), true);
    }

    private void renderChatMl(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        List<ChatMessage> all = messages;
        if (defaultSystemPrompt != null && (messages.isEmpty() || messages.getFirst().role() != Role.SYSTEM)) {
            all = new ArrayList<>(messages.size() + 1);
            all.add(ChatMessage.system(defaultSystemPrompt));
            all.addAll(messages);
        }
        for (ChatMessage m : all) {
            out.append("<|im_start|>").append(m.role().templateName()).append('\n').append(m.content()).append("<|im_end|>\n");
        }
        if (generation) {
            out.append("<|im_start|>assistant\n");
        }
    }

    private void renderLlama3(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        out.append("<|begin_of_text|>");
        List<ChatMessage> rest = messages;
        if (llamaDate != null) {
            boolean hasSystem = !messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM;
            String system = hasSystem ? messages.getFirst().content().strip() : "";
            out.append("<|start_header_id|>system<|end_header_id|>\n\n")
                    .append("Cutting Knowledge Date: December 2023\n")
                    .append("Today Date: ").append(llamaDate).append("\n\n")
                    .append(system).append("<|eot_id|>");
            rest = hasSystem ? messages.subList(1, messages.size()) : messages;
        }
        for (ChatMessage m : rest) {
            out.append("<|start_header_id|>").append(m.role().templateName()).append("<|end_header_id|>\n\n")
                    .append(m.content().strip()).append("<|eot_id|>");
        }
        if (generation) {
            out.append("<|start_header_id|>assistant<|end_header_id|>\n\n");
        }
    }

    private static void renderLlama2(List<ChatMessage> messages, StringBuilder out) {
        String system = !messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM ? messages.getFirst().content() : null;
        List<ChatMessage> loop = system != null ? messages.subList(1, messages.size()) : messages;
        for (int i = 0; i < loop.size(); i++) {
            ChatMessage m = loop.get(i);
            String content = i == 0 && system != null
                    ? "<<SYS>>\n" + system + "\n<</SYS>>\n\n" + m.content()
                    : m.content();
            switch (m.role()) {
                case USER -> out.append("<s>[INST] ").append(content.strip()).append(" [/INST]");
                case ASSISTANT -> out.append(' ').append(content.strip()).append(" </s>");
                case SYSTEM -> { } // the template renders only the first system message
            }
        }
    }

    private static void renderMistral(List<ChatMessage> messages, StringBuilder out) {
        String system = !messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM ? messages.getFirst().content() : null;
        List<ChatMessage> loop = system != null ? messages.subList(1, messages.size()) : messages;
        out.append("<s>");
        boolean firstUser = true;
        for (ChatMessage m : loop) {
            switch (m.role()) {
                case USER -> {
                    out.append("[INST] ");
                    if (firstUser && system != null) {
                        out.append(system).append("\n\n");
                    }
                    out.append(m.content()).append(" [/INST]");
                    firstUser = false;
                }
                case ASSISTANT -> out.append(m.content()).append("</s>");
                case SYSTEM -> { } // only the first system message is used
            }
        }
    }

    private static void renderZephyr(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        for (ChatMessage m : messages) {
            out.append("<|").append(m.role().templateName()).append("|>\n").append(m.content()).append("</s>\n");
        }
        if (generation && !messages.isEmpty()) {
            out.append("<|assistant|>\n");
        }
    }

    /**
     * Qwen3's template for plain messages: ChatML; an assistant answer before the last user message is shown without
     * its thinking block, one after it (the last message, when rendering without a generation prompt) with it, as
     * {@code <think>\nreasoning\n</think>\n\n} (empty reasoning included); with thinking off the reply opens with an
     * empty block so the model answers at once.
     */
    private void renderQwen3(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        int lastQuery = messages.size() - 1;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                lastQuery = i;
                break;
            }
        }
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            switch (m.role()) {
                case SYSTEM, USER -> out.append("<|im_start|>").append(m.role().templateName()).append('\n')
                        .append(m.content()).append("<|im_end|>\n");
                case ASSISTANT -> {
                    String content = m.content();
                    String reasoning = "";
                    int end = content.indexOf("</think>");
                    if (end >= 0) {
                        int open = content.lastIndexOf("<think>", end);
                        reasoning = stripLeading(stripTrailing(content.substring(open < 0 ? 0 : open + 7, end), '\n'), '\n');
                        content = stripLeading(content.substring(content.lastIndexOf("</think>") + 8), '\n');
                    }
                    out.append("<|im_start|>assistant\n");
                    if (i > lastQuery && (i == messages.size() - 1 || !reasoning.isEmpty())) {
                        out.append("<think>\n").append(strip(reasoning, '\n')).append("\n</think>\n\n")
                                .append(stripLeading(content, '\n'));
                    } else {
                        out.append(content);
                    }
                    out.append("<|im_end|>\n");
                }
            }
        }
        if (generation) {
            out.append("<|im_start|>assistant\n");
            if (!thinking) {
                out.append("<think>\n\n</think>\n\n");
            }
        }
    }

    /**
     * Gemma's template: {@code <bos>}, then {@code <start_of_turn>user|model\n} + trimmed content +
     * {@code <end_of_turn>\n} per message; a leading system message opens the first turn followed by a blank line.
     */
    private static void renderGemma(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        out.append("<bos>");
        String prefix = "";
        List<ChatMessage> loop = messages;
        if (!messages.isEmpty() && messages.getFirst().role() == Role.SYSTEM) {
            prefix = messages.getFirst().content() + "\n\n";
            loop = messages.subList(1, messages.size());
        }
        for (int i = 0; i < loop.size(); i++) {
            ChatMessage m = loop.get(i);
            String role = m.role() == Role.ASSISTANT ? "model" : m.role().templateName();
            out.append("<start_of_turn>").append(role).append('\n').append(i == 0 ? prefix : "")
                    .append(m.content().strip()).append("<end_of_turn>\n");
        }
        if (generation) {
            out.append("<start_of_turn>model\n");
        }
    }

    /**
     * Phi-3's template: {@code <|role|>\n} + content + {@code <|end|>\n} per message (an empty system message is
     * left out), then {@code <|assistant|>\n}. Without a generation prompt Phi-3.5's template appends its
     * {@code eos_token}; Parley leaves it out so that a conversation's rendering stays a prefix of its next one.
     */
    private void renderPhi3(List<ChatMessage> messages, boolean generation, StringBuilder out) {
        if (bosText != null) {
            out.append(bosText);
        }
        for (ChatMessage m : messages) {
            if (m.role() == Role.SYSTEM && m.content().isEmpty()) {
                continue;
            }
            out.append("<|").append(m.role().templateName()).append("|>\n").append(m.content()).append("<|end|>\n");
        }
        if (generation) {
            out.append("<|assistant|>\n");
        }
    }

    private static String stripLeading(String s, char c) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == c) {
            i++;
        }
        return s.substring(i);
    }

    private static String stripTrailing(String s, char c) {
        int i = s.length();
        while (i > 0 && s.charAt(i - 1) == c) {
            i--;
        }
        return s.substring(0, i);
    }

    private static String strip(String s, char c) {
        return stripTrailing(stripLeading(s, c), c);
    }

    @Override
    public String toString() {
        return "ChatTemplate[" + family + (fallback ? ", fallback" : "")
                + (defaultSystemPrompt != null ? ", default system prompt" : "")
                + (llamaDate != null ? ", date header " + llamaDate : "")
                + (family == ChatTemplateFamily.QWEN3 ? (thinking ? ", thinking on" : ", thinking off") : "") + "]";
    }
}
