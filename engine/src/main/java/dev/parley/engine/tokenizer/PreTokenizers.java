package dev.parley.engine.tokenizer;

import java.util.List;
import java.util.Map;

/**
 * The pre-tokenizers that {@code tokenizer.ggml.pre} names, with the rule lists and flags
 * llama.cpp uses for them (src/llama-vocab.cpp, {@code llm_tokenizer_bpe} and
 * {@code llama_vocab::impl::load}). Regexes are written for java.util.regex; the GPT-2 and
 * Llama 3 ones are hand-written scanners, like llama.cpp's.
 */
final class PreTokenizers {

    /** How one {@code pre} name tokenizes: its splitter, whether whole words that are tokens skip merging, default add-BOS. */
    record Spec(PreTokenizer preTokenizer, boolean ignoreMerges, boolean addBos) {
    }

    static final String QWEN2_REGEX = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
            + "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

    // Greek Extended and letter-like code points that NFC would fold (U+1F7D, U+1FBE, U+1FD3, U+1FDB, U+2126, U+212A)
    // are written as escapes so that no editor normalises them away.
    private static final String DEEPSEEK_LLM_LETTERS = "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-Ֆ"
            + "Ⴀ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\u1F7Dᾀ-ᾴᾶ-ᾼ\u1FBEῂ-ῄῆ-ῌῐ-\u1FD3ῖ-\u1FDBῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\u2126ℨ\u212A-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄ"
            + "Ⰰ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+";
    private static final String CJK_HANGUL = "[一-龥ࠀ-一가-퟿]+";

    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("default", "default"),
            Map.entry("llama3", "llama3"), Map.entry("llama-v3", "llama3"), Map.entry("llama-bpe", "llama3"),
            Map.entry("falcon3", "llama3"), Map.entry("falcon-h1", "llama3"), Map.entry("pixtral", "llama3"),
            Map.entry("midm-2.0", "llama3"), Map.entry("lfm2", "llama3"),
            Map.entry("dbrx", "dbrx"), Map.entry("smaug-bpe", "dbrx"),
            Map.entry("deepseek-llm", "deepseek-llm"), Map.entry("deepseek-coder", "deepseek-coder"),
            Map.entry("falcon", "falcon"),
            Map.entry("gpt-2", "gpt2"), Map.entry("mpt", "gpt2"), Map.entry("phi-2", "gpt2"), Map.entry("olmo", "gpt2"),
            Map.entry("jais", "gpt2"), Map.entry("jina-es", "gpt2"), Map.entry("jina-de", "gpt2"),
            Map.entry("jina-v2-es", "gpt2"), Map.entry("jina-v2-de", "gpt2"), Map.entry("jina-v1-en", "gpt2"),
            Map.entry("jina-v2-code", "gpt2"), Map.entry("roberta-bpe", "gpt2"), Map.entry("gigachat", "gpt2"),
            Map.entry("a.x-4.0", "gpt2"), Map.entry("mellum", "gpt2"), Map.entry("modern-bert", "gpt2"),
            Map.entry("trillion", "gpt2"), Map.entry("granite-docling", "gpt2"), Map.entry("exaone4", "gpt2"),
            Map.entry("starcoder", "starcoder"), Map.entry("refact", "starcoder"), Map.entry("command-r", "starcoder"),
            Map.entry("smollm", "starcoder"), Map.entry("codeshell", "starcoder"), Map.entry("exaone", "starcoder"),
            Map.entry("minerva-7b", "starcoder"),
            Map.entry("qwen2", "qwen2"), Map.entry("deepseek-r1-qwen", "qwen2"), Map.entry("megrez", "qwen2"),
            Map.entry("stablelm2", "qwen2"), Map.entry("hunyuan", "qwen2"), Map.entry("solar-open", "qwen2"),
            Map.entry("kormo", "qwen2"));

    private PreTokenizers() {
    }

    /** The spec for a {@code tokenizer.ggml.pre} value, or {@code null} when llama.cpp's name is not supported here. */
    static Spec forName(String pre) {
        String family = ALIASES.get(pre);
        if (family == null) {
            return null;
        }
        return switch (family) {
            case "default" -> new Spec(new PreTokenizer(pre, List.of(
                    new RegexSplitRule("[\\p{P}\\$\\+<=>\\^~\\|]+"),
                    new Gpt2SplitRule(),
                    new RegexSplitRule("\\p{N}+"),
                    new RegexSplitRule("[0-9][0-9][0-9]"))), false, false);
            case "llama3" -> new Spec(new PreTokenizer(pre, List.of(new Llama3SplitRule())), true, true);
            case "dbrx" -> new Spec(new PreTokenizer(pre, List.of(new Llama3SplitRule())), false, false);
            case "deepseek-llm" -> new Spec(new PreTokenizer(pre, List.of(
                    new RegexSplitRule("[\\r\\n]"),
                    new RegexSplitRule(DEEPSEEK_LLM_LETTERS),
                    new RegexSplitRule("\\s?[!-/:-~！-／：-～‘-‟　-。]+"),
                    new RegexSplitRule("\\s+\\z"),
                    new RegexSplitRule(CJK_HANGUL),
                    new RegexSplitRule("\\p{N}+"))), false, false);
            case "deepseek-coder" -> new Spec(new PreTokenizer(pre, List.of(
                    new RegexSplitRule("[\\r\\n]"),
                    new RegexSplitRule("\\s?\\p{L}+"),
                    new RegexSplitRule("\\s?\\p{P}+"),
                    new RegexSplitRule(CJK_HANGUL),
                    new RegexSplitRule("\\p{N}"))), false, false);
            case "falcon" -> new Spec(new PreTokenizer(pre, List.of(
                    new RegexSplitRule("[\\p{P}\\$\\+<=>\\^~\\|`]+"),
                    new Gpt2SplitRule(),
                    new RegexSplitRule("[0-9][0-9][0-9]"))), false, false);
            case "gpt2" -> new Spec(new PreTokenizer(pre, List.of(new Gpt2SplitRule())), false, false);
            case "starcoder" -> new Spec(new PreTokenizer(pre, List.of(
                    new RegexSplitRule("\\p{N}"),
                    new Gpt2SplitRule())), false, false);
            case "qwen2" -> new Spec(new PreTokenizer(pre, List.of(new RegexSplitRule(QWEN2_REGEX))), false, false);
            default -> throw new IllegalStateException("no rules for pre-tokenizer family " + family);
        };
    }
}
