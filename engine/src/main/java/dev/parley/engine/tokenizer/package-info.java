/**
 * Tokenizers, detokenizer and chat templates that reproduce llama.cpp exactly, built from a GGUF
 * file's {@code tokenizer.*} metadata alone.
 *
 * <h2>Tokenizing</h2>
 * <pre>{@code
 * Tokenizer tokenizer = Tokenizer.fromGguf(gguf);            // SentencePiece (llama) or byte-level BPE (gpt2)
 * int[] ids = tokenizer.encode(text, true, false);            // BOS/EOS per metadata, specials as plain text
 * String back = tokenizer.decode(ids);                        // special tokens rendered as their text
 * }</pre>
 * {@code encode(text, addSpecial, parseSpecial)} is llama.cpp's {@code llama_tokenize}: with
 * {@code parseSpecial} CONTROL tokens written in the text (such as {@code <|im_end|>}) become those
 * tokens; USER_DEFINED tokens are always recognised, as in llama.cpp. The pre-tokenizer comes from
 * {@code tokenizer.ggml.pre} ({@code default}, {@code gpt-2}, {@code mpt}, {@code llama-bpe},
 * {@code qwen2}, {@code smollm}, {@code starcoder}, {@code falcon}, {@code deepseek-llm},
 * {@code deepseek-coder}, {@code dbrx} and their aliases); an unknown name falls back to
 * {@code default} with a warning on {@link java.lang.System.Logger}.
 *
 * <h2>Chat prompts</h2>
 * <pre>{@code
 * ChatTemplate template = ChatTemplate.detect(gguf.getString("tokenizer.chat_template", null));
 * int[] prompt = template.encodePrompt(tokenizer, messages, true);
 * // = tokenizer.encode(template.render(messages, true), !template.includesBos(), true)
 * }</pre>
 * Rendered prompts contain special tokens as text, so they must be encoded with
 * {@code parseSpecial = true}; templates that write the BOS text themselves (Llama 2/3, Mistral)
 * must be encoded with {@code addSpecial = false}, or the prompt starts with two BOS tokens.
 * Generation ends at {@link dev.parley.engine.tokenizer.Vocabulary#isEndOfGeneration(int)} ids;
 * {@link dev.parley.engine.tokenizer.ChatTemplate#stopStrings()} are the textual safety net.
 *
 * <h2>Streaming</h2>
 * {@link dev.parley.engine.tokenizer.StreamingDecoder} turns generated ids into text that never
 * ends in half a UTF-8 character.
 */
package dev.parley.engine.tokenizer;
