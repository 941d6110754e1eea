package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgufException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad or unusual tokenizer metadata gives a clear GgufException, and llama.cpp's defaults apply. */
class VocabularyLoaderTest {

    private static Map<String, Object> bpe() {
        Map<String, Object> m = new HashMap<>();
        m.put("tokenizer.ggml.model", "gpt2");
        m.put("tokenizer.ggml.pre", "gpt-2");
        m.put("tokenizer.ggml.tokens", new String[] {"a", "b", "ab", "Ġ", "Ġab", "<|endoftext|>"});
        m.put("tokenizer.ggml.token_type", new int[] {1, 1, 1, 1, 1, 3});
        m.put("tokenizer.ggml.merges", new String[] {"a b", "Ġ ab"});
        return m;
    }

    private static Map<String, Object> spm() {
        Map<String, Object> m = new HashMap<>();
        m.put("tokenizer.ggml.model", "llama");
        m.put("tokenizer.ggml.tokens", new String[] {"<unk>", "<s>", "</s>", "▁", "a", "b"});
        m.put("tokenizer.ggml.scores", new float[] {0, 0, 0, -1, -2, -3});
        m.put("tokenizer.ggml.token_type", new int[] {2, 3, 3, 1, 1, 1});
        return m;
    }

    private static String error(Map<String, Object> metadata) {
        return assertThrows(GgufException.class, () -> Tokenizers.fromMetadata(metadata::get, "test.gguf")).getMessage();
    }

    @Test
    void missingOrUnknownModel() {
        Map<String, Object> m = bpe();
        m.remove("tokenizer.ggml.model");
        assertTrue(error(m).contains("tokenizer.ggml.model"), error(m));
        m.put("tokenizer.ggml.model", "bert");
        String message = error(m);
        assertTrue(message.contains("unsupported tokenizer model 'bert'") && message.contains("test.gguf"), message);
    }

    @Test
    void missingTokens() {
        Map<String, Object> m = spm();
        m.remove("tokenizer.ggml.tokens");
        assertTrue(error(m).contains("expected an array of strings 'tokenizer.ggml.tokens' but found nothing"), error(m));
        m.put("tokenizer.ggml.tokens", new int[] {1, 2});
        assertTrue(error(m).contains("but found an array of int"), error(m));
    }

    @Test
    void scoresOrTypesOfTheWrongLength() {
        Map<String, Object> m = spm();
        m.put("tokenizer.ggml.scores", new float[] {0, 0, 0});
        assertTrue(error(m).contains("expected 6 scores (one per token) in 'tokenizer.ggml.scores' but found 3"), error(m));
        m = spm();
        m.put("tokenizer.ggml.token_type", new int[] {1});
        assertTrue(error(m).contains("expected 6 token types"), error(m));
    }

    @Test
    void bpeWithoutMergesAndDuplicates() {
        Map<String, Object> m = bpe();
        m.remove("tokenizer.ggml.merges");
        assertTrue(error(m).contains("tokenizer.ggml.merges"), error(m));
        m = bpe();
        m.put("tokenizer.ggml.tokens", new String[] {"a", "b", "a", "Ġ", "Ġab", "<|endoftext|>"});
        assertTrue(error(m).contains("'a' has ids 0 and 2"), error(m));
    }

    @Test
    void addBosWithoutABosToken() {
        Map<String, Object> m = bpe();
        m.put("tokenizer.ggml.add_bos_token", true);
        assertTrue(error(m).contains("has no BOS token"), error(m));
        m.put("tokenizer.ggml.bos_token_id", 5);
        assertEquals(5, assertNoThrow(m).vocabulary().bos());
    }

    @Test
    void defaults() throws GgufException {
        Vocabulary s = Tokenizers.fromMetadata(spm()::get, "spm").vocabulary();
        assertEquals(1, s.bos());
        assertEquals(2, s.eos());
        assertTrue(s.addBos() && s.addSpacePrefix() && !s.addEos());
        Vocabulary b = Tokenizers.fromMetadata(bpe()::get, "bpe").vocabulary();
        assertEquals(-1, b.bos(), "llama.cpp's default id 11 is outside this vocabulary");
        assertTrue(!b.addBos() && !b.addSpacePrefix());
        assertEquals(5, b.eot(), "<|endoftext|> found by its text");
        assertTrue(b.isEndOfGeneration(5));
    }

    @Test
    void unknownPreTokenizerFallsBackToDefault() throws GgufException {
        Map<String, Object> m = bpe();
        m.put("tokenizer.ggml.pre", "no-such-pre");
        Tokenizer t = Tokenizers.fromMetadata(m::get, "bpe");
        assertEquals("no-such-pre", t.vocabulary().pre());
        assertEquals("default", ((BpeTokenizer) t).preTokenizer().name());
    }

    private static Tokenizer assertNoThrow(Map<String, Object> m) {
        try {
            return Tokenizers.fromMetadata(m::get, "test.gguf");
        } catch (GgufException e) {
            throw new AssertionError(e);
        }
    }
}
