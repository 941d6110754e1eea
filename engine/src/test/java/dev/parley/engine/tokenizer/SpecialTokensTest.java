package dev.parley.engine.tokenizer;

import static dev.parley.engine.tokenizer.FixtureTokenizers.concat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import java.util.HashMap;
import java.util.Map;

/** Special tokens in text: CONTROL ones only with parseSpecial, USER_DEFINED ones always (as llama.cpp). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpecialTokensTest {

    /** Vocabularies load once per class (each takes a few hundred milliseconds). */
    private final Map<String, Tokenizer> tokenizers = new HashMap<>();

    private Tokenizer tokenizer(String vocab) {
        return tokenizers.computeIfAbsent(vocab, FixtureTokenizers::load);
    }

    @Test
    void gpt2EndOfTextIsATokenOnlyWhenParsingSpecials() {
        Tokenizer t = tokenizer("ggml-vocab-gpt-2.gguf");
        int eot = t.vocabulary().find("<|endoftext|>");
        assertEquals(TokenType.CONTROL, t.vocabulary().type(eot));
        String text = "Hello<|endoftext|> world";
        assertArrayEquals(concat(t.encode("Hello", false, false), new int[] {eot}, t.encode(" world", false, false)),
                t.encode(text, false, true));
        int[] plain = t.encode(text, false, false);
        assertFalse(Arrays.stream(plain).anyMatch(id -> id == eot));
        assertEquals(text, t.decode(plain));
        assertEquals(text, t.decode(t.encode(text, false, true)), "special tokens decode to their text");
    }

    @Test
    void spmControlTokensAndSpacePrefixAfterThem() {
        Tokenizer t = tokenizer("ggml-vocab-llama-spm.gguf");
        // text after a special token gets the space prefix, like text at the start
        assertArrayEquals(concat(new int[] {1}, t.encode("Hi there", false, false), new int[] {2}),
                t.encode("<s>Hi there</s>", false, true));
        int[] plain = t.encode("<s>Hi there</s>", false, false);
        assertFalse(Arrays.stream(plain).anyMatch(id -> id == 1 || id == 2));
        assertArrayEquals(concat(new int[] {1}, plain), t.encode("<s>Hi there</s>", true, false), "BOS added by addSpecial");
    }

    @Test
    void userDefinedTokensAreSplitEvenWithoutParseSpecial() {
        Tokenizer t = tokenizer("ggml-vocab-mpt.gguf");
        String spaces = " ".repeat(8);
        int id = t.vocabulary().find(spaces);
        assertEquals(TokenType.USER_DEFINED, t.vocabulary().type(id));
        int[] ids = t.encode("a" + spaces + "b", false, false);
        assertArrayEquals(concat(t.encode("a", false, false), new int[] {id}, t.encode("b", false, false)), ids);
    }

    @Test
    void phi3DropsWhiteSpaceAfterItsSpecialTokens() {
        Tokenizer t = tokenizer("ggml-vocab-phi-3.gguf");
        int user = t.vocabulary().find("<|user|>");
        int end = t.vocabulary().find("<|end|>");
        assertArrayEquals(concat(new int[] {user}, t.encode("Hi", false, false), new int[] {end}),
                t.encode("<|user|>\nHi<|end|>\n", false, true));
    }

    @Test
    void endOfGenerationTokens() {
        Vocabulary spm = tokenizer("ggml-vocab-llama-spm.gguf").vocabulary();
        assertTrue(spm.isEndOfGeneration(2));
        assertFalse(spm.isEndOfGeneration(1));
        assertEquals(-1, spm.eot());
        assertEquals(TokenType.BYTE, spm.type(3));
        assertEquals(TokenType.UNKNOWN, spm.type(0));
        assertTrue(spm.addBos());
        assertTrue(spm.addSpacePrefix());

        Vocabulary phi3 = tokenizer("ggml-vocab-phi-3.gguf").vocabulary();
        assertEquals(32000, phi3.eos());
        assertTrue(phi3.isEndOfGeneration(32000));
        assertTrue(phi3.isEndOfGeneration(phi3.find("<|end|>")));
        assertFalse(phi3.isEndOfGeneration(phi3.find("<|user|>")));

        Vocabulary gpt2 = tokenizer("ggml-vocab-gpt-2.gguf").vocabulary();
        assertFalse(gpt2.addBos(), "gpt2 vocabularies add no BOS unless their metadata says so");
        assertTrue(gpt2.isEndOfGeneration(50256));
        assertEquals(50256, gpt2.eot(), "<|endoftext|> is taken as end of turn, as llama.cpp does");
        assertFalse(gpt2.isEndOfGeneration(-1));
    }
}
