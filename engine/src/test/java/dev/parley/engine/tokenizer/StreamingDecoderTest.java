package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import java.util.HashMap;
import java.util.Map;

/** Multi-byte characters spread over several tokens come out whole, never as U+FFFD. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamingDecoderTest {

    /** Vocabularies load once per class (each takes a few hundred milliseconds). */
    private final Map<String, Tokenizer> tokenizers = new HashMap<>();

    private Tokenizer tokenizer(String vocab) {
        return tokenizers.computeIfAbsent(vocab, FixtureTokenizers::load);
    }

    private static final String TEXT = "naïve café — 👍🏽 日本語のテキスト ½ 🦙 Ωμέγα";

    @ParameterizedTest
    @ValueSource(strings = {"ggml-vocab-llama-spm.gguf", "ggml-vocab-gpt-2.gguf"})
    void emitsOnlyCompleteCharacters(String vocab) {
        Tokenizer t = tokenizer(vocab);
        int[] ids = t.encode(TEXT, false, false);
        StreamingDecoder decoder = new StreamingDecoder(t);
        StringBuilder out = new StringBuilder();
        boolean heldBack = false;
        for (int id : ids) {
            String piece = decoder.push(id);
            assertFalse(piece.contains("\uFFFD"), () -> "broken character after token " + id);
            heldBack |= piece.isEmpty() && decoder.pendingBytes() > 0;
            out.append(piece);
        }
        out.append(decoder.flush());
        assertEquals(TEXT, out.toString());
        assertEquals(t.decode(ids), out.toString());
        assertTrue(heldBack, "the text should contain a character split over tokens");
    }

    @Test
    void spmTextReallyUsesByteFallback() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        int byteTokens = 0;
        for (int id : t.encode("👍🏽", false, false)) {
            if (t.vocabulary().type(id) == TokenType.BYTE) {
                byteTokens++;
            }
        }
        assertEquals(8, byteTokens, "two 4-byte emoji as <0xXX> tokens");
    }

    @Test
    void flushTurnsAnUnfinishedCharacterIntoReplacement() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        int[] ids = t.encode("a👍", false, false);
        StreamingDecoder decoder = new StreamingDecoder(t);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < ids.length - 1; i++) {
            out.append(decoder.push(ids[i]));
        }
        assertEquals("a", out.toString());
        assertTrue(decoder.pendingBytes() > 0);
        String tail = decoder.flush();
        assertFalse(tail.isEmpty());
        assertTrue(tail.chars().allMatch(c -> c == 0xFFFD), tail);
        assertEquals(0, decoder.pendingBytes());
    }

    @Test
    void invalidBytesAreReplacedAtOnceNotHeld() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        int continuation = t.vocabulary().find("<0x80>");
        int[] a = t.encode("a", false, false);
        StreamingDecoder decoder = new StreamingDecoder(t);
        decoder.push(a[0]);
        assertEquals("\uFFFD", decoder.push(continuation));
        assertEquals(0, decoder.pendingBytes());
    }

    @Test
    void specialTokensCanBeHidden() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        int[] ids = t.encode("Hello", true, false);
        StreamingDecoder hidden = new StreamingDecoder(t, false);
        StringBuilder out = new StringBuilder();
        for (int id : ids) {
            out.append(hidden.push(id));
        }
        assertEquals("Hello", out.toString());
        StreamingDecoder shown = new StreamingDecoder(t);
        StringBuilder all = new StringBuilder();
        for (int id : ids) {
            all.append(shown.push(id));
        }
        assertEquals(t.decode(ids), all.toString());
        assertEquals("<s> Hello", all.toString());
    }

    @Test
    void continuationKeepsTheFirstSpace() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        int[] ids = t.encode(" brown fox", false, false); // the text has its own leading space besides the prefix
        StreamingDecoder continuation = new StreamingDecoder(t, true, false);
        StringBuilder out = new StringBuilder();
        for (int id : t.encode("brown fox", false, false)) {
            out.append(continuation.push(id));
        }
        assertEquals(" brown fox", out.toString());
        assertEquals(" brown fox", t.decode(ids), "decode strips only the prefix space it added");
    }
}
