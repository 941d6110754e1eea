package dev.parley.engine.tokenizer;

/**
 * The prompt formats {@link ChatTemplate} renders.
 * <ul>
 *   <li>{@code CHATML}: {@code <|im_start|>role\n...<|im_end|>\n} (Qwen2.5, SmolLM2)</li>
 *   <li>{@code LLAMA3}: {@code <|begin_of_text|><|start_header_id|>role<|end_header_id|>\n\n...<|eot_id|>}</li>
 *   <li>{@code LLAMA2}: {@code <s>[INST] <<SYS>>\n...\n<</SYS>>\n\n... [/INST] ... </s>}</li>
 *   <li>{@code MISTRAL}: {@code <s>[INST] ... [/INST]...</s>}, system prompt folded into the first user turn</li>
 *   <li>{@code ZEPHYR}: {@code <|system|>\n...</s>\n<|user|>\n...</s>\n<|assistant|>\n} (TinyLlama chat)</li>
 *   <li>{@code QWEN3}: ChatML with a thinking block: earlier answers lose theirs, and the reply opens with an empty
 *       {@code <think>\n\n</think>\n\n} when thinking is off (Qwen3's {@code enable_thinking=false})</li>
 *   <li>{@code GEMMA}: {@code <bos><start_of_turn>user\n...<end_of_turn>\n<start_of_turn>model\n}, no system
 *       role: the system prompt opens the first user turn (Gemma 2/3)</li>
 *   <li>{@code PHI3}: {@code <|system|>\n...<|end|>\n<|user|>\n...<|end|>\n<|assistant|>\n} (Phi-3, Phi-3.5 mini)</li>
 * </ul>
 */
public enum ChatTemplateFamily {
    CHATML, LLAMA3, LLAMA2, MISTRAL, ZEPHYR, QWEN3, GEMMA, PHI3
}
