package dev.parley.engine.tokenizer;

import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises a chat template's family from distinctive substrings of its Jinja source, in the
 * spirit of llama.cpp's {@code llm_chat_detect_template} (src/llama-chat.cpp), restricted to the
 * families Parley renders. Formats that merely look alike (Phi-4's {@code <|im_sep|>}, Mistral v7's
 * {@code [SYSTEM_PROMPT]}) are not claimed.
 */
final class ChatTemplateDetector {

    private static final System.Logger LOG = System.getLogger(ChatTemplateDetector.class.getName());

    /** A literal default system turn in a ChatML template, e.g. Qwen2.5's "You are Qwen, ...". */
    private static final Pattern DEFAULT_SYSTEM = Pattern.compile("<\\|im_start\\|>system(?:\\\\n|\\n)([^'\"{}]+?)<\\|im_end\\|>");

    private ChatTemplateDetector() {
    }

    static ChatTemplate detect(String source) {
        if (source == null || source.isBlank()) {
            LOG.log(Level.WARNING, "model has no chat template; using ChatML");
            return new ChatTemplate(ChatTemplateFamily.CHATML, true, null, null);
        }
        switch (source.strip().toLowerCase(Locale.ROOT)) {
            case "chatml" -> { return ChatTemplate.of(ChatTemplateFamily.CHATML); }
            case "llama3" -> { return ChatTemplate.of(ChatTemplateFamily.LLAMA3); }
            case "llama2" -> { return ChatTemplate.of(ChatTemplateFamily.LLAMA2); }
            case "mistral" -> { return ChatTemplate.of(ChatTemplateFamily.MISTRAL); }
            case "zephyr" -> { return ChatTemplate.of(ChatTemplateFamily.ZEPHYR); }
            case "qwen3" -> { return ChatTemplate.of(ChatTemplateFamily.QWEN3); }
            case "gemma" -> { return ChatTemplate.of(ChatTemplateFamily.GEMMA); }
            case "phi3" -> { return ChatTemplate.of(ChatTemplateFamily.PHI3); }
            default -> { }
        }
        if (source.contains("<|im_start|>") && source.contains("<think>") && source.contains("enable_thinking")) {
            return ChatTemplate.of(ChatTemplateFamily.QWEN3);
        }
        if (source.contains("<start_of_turn>") && source.contains("<end_of_turn>")) {
            return ChatTemplate.of(ChatTemplateFamily.GEMMA);
        }
        if (source.contains("<|user|>") && source.contains("<|assistant|>") && source.contains("<|end|>")
                && !source.contains("<|im_start|>")) {
            return ChatTemplate.phi3(source.contains("bos_token"));
        }
        if (source.contains("<|im_start|>") && !source.contains("<|im_sep|>") && !source.contains("<end_of_utterance>")) {
            return new ChatTemplate(ChatTemplateFamily.CHATML, false, defaultSystemPrompt(source), null);
        }
        if (source.contains("<|start_header_id|>") && source.contains("<|end_header_id|>")) {
            String date = source.contains("Cutting Knowledge Date") ? ChatTemplate.LLAMA31_DEFAULT_DATE : null;
            return new ChatTemplate(ChatTemplateFamily.LLAMA3, false, null, date);
        }
        if (source.contains("[INST]") && !source.contains("[SYSTEM_PROMPT]")) {
            return ChatTemplate.of(source.contains("<<SYS>>") ? ChatTemplateFamily.LLAMA2 : ChatTemplateFamily.MISTRAL);
        }
        if (source.contains("<|user|>") && source.contains("<|assistant|>") && !source.contains("<|end|>")) {
            return ChatTemplate.of(ChatTemplateFamily.ZEPHYR);
        }
        LOG.log(Level.WARNING, "unrecognised chat template ({0} characters); using ChatML", source.length());
        return new ChatTemplate(ChatTemplateFamily.CHATML, true, null, null);
    }

    private static String defaultSystemPrompt(String source) {
        Matcher m = DEFAULT_SYSTEM.matcher(source);
        return m.find() ? m.group(1).replace("\\n", "\n") : null;
    }
}
