package dev.parley.engine.tokenizer;

/**
 * The prompt formats {@link ChatTemplate} renders.
 * <ul>
 *   <li>{@code CHATML}: {@code <|im_start|>role\n...<|im_end|>\n} (Qwen2.5, SmolLM2)</li>
 *   <li>{@code LLAMA3}: {@code <|begin_of_text|><|start_header_id|>role<|end_header_id|>\n\n...<|eot_id|>}</li>
 *   <li>{@code LLAMA2}: {@code <s>[INST] <<SYS>>\n...\n<</SYS>>\n\n... [/INST] ... </s>}</li>
 *   <li>{@code MISTRAL}: {@code <s>[INST] ... [/INST]...</s>}, system prompt folded into the first user turn</li>
 *   <li>{@code ZEPHYR}: {@code <|system|>\n...</s>\n<|user|>\n...</s>\n<|assistant|>\n} (TinyLlama chat)</li>
 * </ul>
 */
public enum ChatTemplateFamily {
    CHATML, LLAMA3, LLAMA2, MISTRAL, ZEPHYR
}
