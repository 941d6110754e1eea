package dev.parley.engine.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Pre-tokenizer splits of tricky strings (contractions, digit groups, mixed scripts, white-space
 * runs, newlines, non-ASCII spaces) for the pre-tokenizers that the vocab fixtures do not cover.
 * Expected pieces were computed with Python's {@code regex} module running the original
 * Hugging Face patterns in sequence, keeping matches and gaps as llama.cpp does (see
 * PreTokenizerSplitTest's one noted deviation, where llama.cpp's handling of non-ASCII spaces wins).
 */
class PreTokenizerSplitTest {

    static final List<String> INPUTS = List.of(
            "Hello world, it's 2024!",
            "I'm sure they'VE said WE'LL go, can't you 's",
            "12345 and 1234567 or 3.14159",
            "h\u00e9llo \u043c\u0438\u0440 \u4f60\u597d\u4e16\u754c \u0661\u0662\u0663\u0664 na\u00efve",
            "a  b   c    ",
            "line1\n\nline2\r\n  indented\n",
            "foo!!! ?? (bar)... [x]",
            "x = $12.50 + ~3 | <tag> `code`",
            "\u00a0x\u3000y  \u2003z");

    // default
    static final List<List<String>> DEFAULT = List.of(
            List.of("Hello", " world", ",", " it", "'", "s", " ", "202", "4", "!"),
            List.of("I", "'", "m", " sure", " they", "'", "VE", " said", " WE", "'", "LL", " go", ",", " can", "'", "t", " you", " ", "'", "s"),
            List.of("123", "45", " and", " ", "123", "456", "7", " or", " ", "3", ".", "141", "59"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " ", "\u0661\u0662\u0663\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n", "\n", "line", "2", "\r\n ", " indented", "\n"),
            List.of("foo", "!!!", " ", "??", " ", "(", "bar", ")...", " ", "[", "x", "]"),
            List.of("x", " ", "=", " ", "$", "12", ".", "50", " ", "+", " ", "~", "3", " ", "|", " ", "<", "tag", ">", " `", "code", "`"),
            List.of("\u00a0", "x", "\u3000", "y", "  ", "\u2003", "z"));

    // gpt-2
    static final List<List<String>> GPT_2 = List.of(
            List.of("Hello", " world", ",", " it", "'s", " 2024", "!"),
            List.of("I", "'m", " sure", " they", "'", "VE", " said", " WE", "'", "LL", " go", ",", " can", "'t", " you", " '", "s"),
            List.of("12345", " and", " 1234567", " or", " 3", ".", "14159"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " \u0661\u0662\u0663\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n", "\n", "line", "2", "\r\n ", " indented", "\n"),
            List.of("foo", "!!!", " ??", " (", "bar", ")...", " [", "x", "]"),
            List.of("x", " =", " $", "12", ".", "50", " +", " ~", "3", " |", " <", "tag", ">", " `", "code", "`"),
            List.of("\u00a0", "x", "\u3000", "y", "  ", "\u2003", "z"));

    // llama-bpe
    static final List<List<String>> LLAMA_BPE = List.of(
            List.of("Hello", " world", ",", " it", "'s", " ", "202", "4", "!"),
            List.of("I", "'m", " sure", " they", "'VE", " said", " WE", "'LL", " go", ",", " can", "'t", " you", " '", "s"),
            List.of("123", "45", " and", " ", "123", "456", "7", " or", " ", "3", ".", "141", "59"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " ", "\u0661\u0662\u0663", "\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n\n", "line", "2", "\r\n", " ", " indented", "\n"),
            List.of("foo", "!!!", " ??", " (", "bar", ")...", " [", "x", "]"),
            List.of("x", " =", " $", "12", ".", "50", " +", " ~", "3", " |", " <", "tag", ">", " `", "code", "`"),
            List.of("\u00a0x", "\u3000y", "  ", "\u2003z"));

    // qwen2
    static final List<List<String>> QWEN2 = List.of(
            List.of("Hello", " world", ",", " it", "'s", " ", "2", "0", "2", "4", "!"),
            List.of("I", "'m", " sure", " they", "'VE", " said", " WE", "'LL", " go", ",", " can", "'t", " you", " '", "s"),
            List.of("1", "2", "3", "4", "5", " and", " ", "1", "2", "3", "4", "5", "6", "7", " or", " ", "3", ".", "1", "4", "1", "5", "9"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " ", "\u0661", "\u0662", "\u0663", "\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n\n", "line", "2", "\r\n", " ", " indented", "\n"),
            List.of("foo", "!!!", " ??", " (", "bar", ")...", " [", "x", "]"),
            List.of("x", " =", " $", "1", "2", ".", "5", "0", " +", " ~", "3", " |", " <", "tag", ">", " `", "code", "`"),
            List.of("\u00a0x", "\u3000y", "  ", "\u2003z"));

    // smollm
    static final List<List<String>> SMOLLM = List.of(
            List.of("Hello", " world", ",", " it", "'s", " ", "2", "0", "2", "4", "!"),
            List.of("I", "'m", " sure", " they", "'", "VE", " said", " WE", "'", "LL", " go", ",", " can", "'t", " you", " '", "s"),
            List.of("1", "2", "3", "4", "5", " and", " ", "1", "2", "3", "4", "5", "6", "7", " or", " ", "3", ".", "1", "4", "1", "5", "9"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " ", "\u0661", "\u0662", "\u0663", "\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n", "\n", "line", "2", "\r\n ", " indented", "\n"),
            List.of("foo", "!!!", " ??", " (", "bar", ")...", " [", "x", "]"),
            List.of("x", " =", " $", "1", "2", ".", "5", "0", " +", " ~", "3", " |", " <", "tag", ">", " `", "code", "`"),
            List.of("\u00a0", "x", "\u3000", "y", "  ", "\u2003", "z"));

    // falcon
    static final List<List<String>> FALCON = List.of(
            List.of("Hello", " world", ",", " it", "'", "s", " ", "202", "4", "!"),
            List.of("I", "'", "m", " sure", " they", "'", "VE", " said", " WE", "'", "LL", " go", ",", " can", "'", "t", " you", " ", "'", "s"),
            List.of("123", "45", " and", " ", "123", "456", "7", " or", " 3", ".", "141", "59"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " \u4f60\u597d\u4e16\u754c", " \u0661\u0662\u0663\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n", "\n", "line", "2", "\r\n ", " indented", "\n"),
            List.of("foo", "!!!", " ", "??", " ", "(", "bar", ")...", " ", "[", "x", "]"),
            List.of("x", " ", "=", " ", "$", "12", ".", "50", " ", "+", " ", "~", "3", " ", "|", " ", "<", "tag", ">", " ", "`", "code", "`"),
            List.of("\u00a0", "x", "\u3000", "y", "  ", "\u2003", "z"));

    // deepseek-coder
    static final List<List<String>> DEEPSEEK_CODER = List.of(
            List.of("Hello", " world", ",", " it", "'", "s", " ", "2", "0", "2", "4", "!"),
            List.of("I", "'", "m", " sure", " they", "'", "VE", " said", " WE", "'", "LL", " go", ",", " can", "'", "t", " you", " '", "s"),
            List.of("1", "2", "3", "4", "5", " and", " ", "1", "2", "3", "4", "5", "6", "7", " or", " ", "3", ".", "1", "4", "1", "5", "9"),
            List.of("h\u00e9llo", " \u043c\u0438\u0440", " ", "\u4f60\u597d\u4e16\u754c", " ", "\u0661", "\u0662", "\u0663", "\u0664", " na\u00efve"),
            List.of("a", " ", " b", "  ", " c", "    "),
            List.of("line", "1", "\n", "\n", "line", "2", "\r", "\n", " ", " indented", "\n"),
            List.of("foo", "!!!", " ??", " (", "bar", ")...", " [", "x", "]"),
            List.of("x", " = $", "1", "2", ".", "5", "0", " + ~", "3", " | <", "tag", "> `", "code", "`"),
            // llama.cpp matches the CJK range on text whose non-ASCII spaces became U+000B, so U+3000 and U+2003 stay with their letters
            List.of("\u00a0x", "\u3000y", "  ", "\u2003z"));


    private static final Map<String, List<List<String>>> EXPECTED = Map.of(
            "default", DEFAULT, "gpt-2", GPT_2, "mpt", GPT_2, "llama-bpe", LLAMA_BPE, "qwen2", QWEN2,
            "smollm", SMOLLM, "starcoder", SMOLLM, "falcon", FALCON, "deepseek-coder", DEEPSEEK_CODER);

    @TestFactory
    Stream<DynamicTest> splitsMatchTheRegexesOfLlamaCpp() {
        return EXPECTED.entrySet().stream().sorted(Map.Entry.comparingByKey()).flatMap(e -> {
            PreTokenizer pre = PreTokenizers.forName(e.getKey()).preTokenizer();
            return IntStream.range(0, INPUTS.size()).mapToObj(i -> DynamicTest.dynamicTest(
                    e.getKey() + " #" + i + " " + INPUTS.get(i).replace("\n", "\\n").replace("\r", "\\r"),
                    () -> assertEquals(e.getValue().get(i), pre.split(INPUTS.get(i)))));
        });
    }

    @Test
    void piecesAlwaysConcatenateToTheInput() {
        String text = "Ünïcödé 👍🏽 mixed\t\ttabs\u2028sep 0x1F \uD83D\uDE00!? '' 'LL 1,234,567.89";
        for (String name : List.of("default", "gpt-2", "llama-bpe", "qwen2", "smollm", "falcon", "deepseek-llm",
                "deepseek-coder", "dbrx")) {
            List<String> pieces = PreTokenizers.forName(name).preTokenizer().split(text);
            assertEquals(text, String.join("", pieces), name);
            pieces.forEach(p -> assertEquals(false, p.isEmpty(), name + " produced an empty piece"));
        }
    }

    @Test
    void deepseekLlmKeepsLatinWordsAndCjkRuns() {
        PreTokenizer pre = PreTokenizers.forName("deepseek-llm").preTokenizer();
        // rules: [\r\n] | \s?[Latin...]+ | \s?[ASCII and full-width punctuation]+ | \s+$ | [CJK/Hangul]+ | \p{N}+
        assertEquals(List.of("Hello", " world", "!", "\n", "\u4f60\u597d", " ", "123", "  "),
                pre.split("Hello world!\n\u4f60\u597d 123  "));
    }

    @Test
    void unknownNamesAreNotGuessed() {
        assertNull(PreTokenizers.forName("no-such-pre"));
        assertNotNull(PreTokenizers.forName("llama3"));
        assertEquals(true, PreTokenizers.forName("llama-bpe").addBos());
        assertEquals(true, PreTokenizers.forName("llama-bpe").ignoreMerges());
        assertEquals(false, PreTokenizers.forName("qwen2").addBos());
    }
}
