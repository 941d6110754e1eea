package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.engine.gguf.GgufException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The merge loops on tiny hand-made vocabularies: priority, ties, byte fallback. */
class MergeOrderTest {

    private static Tokenizer bpe(String[] tokens, String[] merges) throws GgufException {
        Map<String, Object> m = new HashMap<>();
        m.put("tokenizer.ggml.model", "gpt2");
        m.put("tokenizer.ggml.pre", "gpt-2");
        m.put("tokenizer.ggml.tokens", tokens);
        m.put("tokenizer.ggml.merges", merges);
        return Tokenizers.fromMetadata(m::get, "tiny-bpe");
    }

    @Test
    void bpeMergesByRankNotByPosition() throws GgufException {
        String[] tokens = {"a", "b", "c", "ab", "bc", "abc"};
        // "b c" ranks first, so "abc" is a + bc, then "a bc"
        assertArrayEquals(new int[] {5}, bpe(tokens, new String[] {"b c", "a b", "a bc"}).encode("abc", false, false));
        // without a rule for "ab c" the word stays ab + c
        assertArrayEquals(new int[] {3, 2}, bpe(tokens, new String[] {"a b", "b c", "a bc"}).encode("abc", false, false));
    }

    @Test
    void bpeTiesGoToTheLeftmostPair() throws GgufException {
        assertArrayEquals(new int[] {1, 0}, bpe(new String[] {"a", "aa"}, new String[] {"a a"}).encode("aaa", false, false));
    }

    @Test
    void bpeSpellsSpacesWithTheByteMapping() throws GgufException {
        Tokenizer t = bpe(new String[] {"a", "Ġ", "Ġa"}, new String[] {"Ġ a"});
        assertArrayEquals(new int[] {0, 2}, t.encode("a a", false, false));
        assertEquals("a a", t.decode(new int[] {0, 2}));
    }

    @Test
    void spmMergesByScoreAndFallsBackToBytes() throws GgufException {
        Map<String, Object> m = new HashMap<>();
        m.put("tokenizer.ggml.model", "llama");
        String[] tokens = new String[3 + 256 + 5];
        float[] scores = new float[tokens.length];
        int[] types = new int[tokens.length];
        tokens[0] = "<unk>"; types[0] = 2;
        tokens[1] = "<s>"; types[1] = 3;
        tokens[2] = "</s>"; types[2] = 3;
        for (int b = 0; b < 256; b++) {
            tokens[3 + b] = String.format("<0x%02X>", b);
            types[3 + b] = 6;
        }
        String[] words = {"▁", "a", "b", "▁a", "ab"};
        float[] wordScores = {-1, -2, -3, -5, -4};
        for (int i = 0; i < words.length; i++) {
            tokens[259 + i] = words[i];
            scores[259 + i] = wordScores[i];
            types[259 + i] = 1;
        }
        m.put("tokenizer.ggml.tokens", tokens);
        m.put("tokenizer.ggml.scores", scores);
        m.put("tokenizer.ggml.token_type", types);
        Tokenizer t = Tokenizers.fromMetadata(m::get, "tiny-spm");
        // "▁ab": "ab" (-4) beats "▁a" (-5), and "▁ab" is no token: ▁ + ab
        assertArrayEquals(new int[] {259, 263}, t.encode("ab", false, false));
        // "é" is not in the vocabulary: its two UTF-8 bytes
        assertArrayEquals(new int[] {259, 3 + 0xC3, 3 + 0xA9}, t.encode("é", false, false));
        assertEquals("é", t.decode(t.encode("é", false, false)));
        assertArrayEquals(new int[] {1, 259, 263}, t.encode("ab", true, false));
    }
}
