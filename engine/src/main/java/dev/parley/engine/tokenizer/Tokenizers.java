package dev.parley.engine.tokenizer;

import dev.parley.engine.gguf.GgufException;
import java.util.function.Function;

/** Builds the right {@link Tokenizer} implementation from metadata values. */
final class Tokenizers {

    private Tokenizers() {
    }

    /**
     * @param metadata key to value as {@code GgufMetadataValue.value()} holds it, null when absent
     * @param source   the file name, for error messages
     */
    static Tokenizer fromMetadata(Function<String, Object> metadata, String source) throws GgufException {
        VocabularyLoader.Result loaded = VocabularyLoader.load(metadata, source);
        try {
            if (loaded.vocabulary().isSentencePiece()) {
                return new SentencePieceTokenizer(loaded.vocabulary(), loaded.ids(), loaded.generalName());
            }
            return new BpeTokenizer(loaded.vocabulary(), loaded.ids(), loaded.merges(), loaded.preTokenizer(),
                    loaded.ignoreMerges(), loaded.generalName());
        } catch (IllegalArgumentException e) {
            throw new GgufException(source + ": invalid tokenizer metadata: " + e.getMessage(), e);
        }
    }
}
