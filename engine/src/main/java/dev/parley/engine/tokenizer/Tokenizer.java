package dev.parley.engine.tokenizer;

import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;

/**
 * Text to token ids and back, exactly as llama.cpp does for the same GGUF vocabulary.
 *
 * <p>Chat prompts rendered by {@link ChatTemplate} contain special tokens as text (for example
 * {@code <|im_start|>}); encode them with {@code parseSpecial = true}, and with
 * {@code addSpecial = false} when the template already wrote the BOS text
 * ({@link ChatTemplate#includesBos()}).
 *
 * <p>Implementations are immutable and safe to share between threads.
 */
public interface Tokenizer {

    /** The vocabulary this tokenizer uses. */
    Vocabulary vocabulary();

    /**
     * Token ids of {@code text}.
     *
     * @param addSpecial   add BOS / EOS as the vocabulary's {@code add_bos_token} / {@code add_eos_token} say
     * @param parseSpecial recognise CONTROL tokens written in the text (e.g. {@code <|im_end|>}); when false
     *                     they are tokenized as plain text (USER_DEFINED tokens are always recognised, as in llama.cpp)
     */
    int[] encode(String text, boolean addSpecial, boolean parseSpecial);

    /**
     * The text of {@code ids}, special tokens rendered as their text. Like llama.cpp's detokenizer,
     * one leading space of the first piece is dropped when the vocabulary adds a space prefix;
     * no other clean-up is done, so {@code decode(encode(s, false, false))} gives back {@code s} for any
     * well-formed text, except that SentencePiece vocabularies (as llama.cpp) turn U+2581 into a space
     * and add a space after a user-defined token found in the text (checked by TokenizerFuzzTest).
     */
    String decode(int[] ids);

    /** The raw bytes of one token's piece (may be part of a UTF-8 character: see {@link StreamingDecoder}). */
    byte[] pieceBytes(int id);

    /**
     * The tokenizer that a GGUF file's {@code tokenizer.*} metadata describes.
     *
     * @throws GgufException when the metadata is missing, inconsistent or names an unsupported model type
     */
    static Tokenizer fromGguf(GgufFile gguf) throws GgufException {
        return Tokenizers.fromMetadata(key -> gguf.find(key).map(GgufMetadataValue::value).orElse(null),
                gguf.path().getFileName().toString());
    }
}
