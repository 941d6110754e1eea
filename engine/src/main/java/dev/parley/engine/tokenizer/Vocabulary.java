package dev.parley.engine.tokenizer;

import java.util.Arrays;
import java.util.Objects;

/**
 * A model's vocabulary as read from GGUF metadata: token texts, scores and types, the ids of the
 * special tokens (-1 where the model has none) and the flags that say what {@code encode} adds.
 * Plain data; the tokenizers build their lookup tables from it.
 *
 * @param model              {@code tokenizer.ggml.model}: {@code llama} (SentencePiece) or {@code gpt2} (byte-level BPE)
 * @param pre                the pre-tokenizer name actually used (after defaults), e.g. {@code default}, {@code qwen2}
 * @param tokens             token texts, index = id (arrays are copied in and out: a Vocabulary is immutable)
 * @param scores             SentencePiece scores (zeros when the model has none)
 * @param types              token types; {@code null} entries mean "undefined" (GGUF code 0 or out of range)
 * @param bos                begin-of-sequence id or -1
 * @param eos                end-of-sequence id or -1
 * @param eot                end-of-turn id or -1 (from metadata or found by text, as llama.cpp does)
 * @param pad                padding id or -1
 * @param addBos             whether {@code encode(text, addSpecial=true, ..)} prepends BOS
 * @param addEos             whether it appends EOS
 * @param addSpacePrefix     whether SentencePiece encoding prefixes text with a space (and decoding strips it)
 * @param endOfGeneration    sorted ids that end generation (EOS, EOT and the usual end tokens by text)
 */
public record Vocabulary(String model, String pre, String[] tokens, float[] scores, TokenType[] types,
                         int bos, int eos, int eot, int pad, boolean addBos, boolean addEos,
                         boolean addSpacePrefix, int[] endOfGeneration) {

    public Vocabulary {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(pre, "pre");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(scores, "scores");
        Objects.requireNonNull(types, "types");
        Objects.requireNonNull(endOfGeneration, "endOfGeneration");
        if (scores.length != tokens.length || types.length != tokens.length) {
            throw new IllegalArgumentException("expected " + tokens.length + " scores and types but found "
                    + scores.length + " scores and " + types.length + " types");
        }
        for (int id : new int[] {bos, eos, eot, pad}) {
            if (id < -1 || id >= tokens.length) {
                throw new IllegalArgumentException("expected a special token id in [-1, " + tokens.length + ") but found " + id);
            }
        }
        tokens = tokens.clone();
        scores = scores.clone();
        types = types.clone();
        endOfGeneration = endOfGeneration.clone();
        Arrays.sort(endOfGeneration);
    }

    /** Number of tokens. */
    public int size() {
        return tokens.length;
    }

    /** Text of token {@code id} as stored in the vocabulary (SentencePiece pieces keep their U+2581). */
    public String token(int id) {
        return tokens[checkId(id)];
    }

    /** Type of token {@code id}; {@code null} when the file gave an undefined type. */
    public TokenType type(int id) {
        return types[checkId(id)];
    }

    /** Score of token {@code id}. */
    public float score(int id) {
        return scores[checkId(id)];
    }

    /** True when generation should stop after {@code id}: EOS, EOT and end tokens such as {@code <|im_end|>}. */
    public boolean isEndOfGeneration(int id) {
        return id >= 0 && Arrays.binarySearch(endOfGeneration, id) >= 0;
    }

    /** The id of the token whose text is exactly {@code text}, or -1 (linear scan; for set-up code, not hot loops). */
    public int find(String text) {
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i].equals(text)) {
                return i;
            }
        }
        return -1;
    }

    /** True for SentencePiece vocabularies ({@code model = llama}). */
    public boolean isSentencePiece() {
        return "llama".equals(model);
    }

    @Override
    public String[] tokens() {
        return tokens.clone();
    }

    @Override
    public float[] scores() {
        return scores.clone();
    }

    @Override
    public TokenType[] types() {
        return types.clone();
    }

    @Override
    public int[] endOfGeneration() {
        return endOfGeneration.clone();
    }

    private int checkId(int id) {
        if (id < 0 || id >= tokens.length) {
            throw new IndexOutOfBoundsException("expected a token id in [0, " + tokens.length + ") but found " + id);
        }
        return id;
    }

    @Override
    public String toString() {
        return "Vocabulary[model=" + model + ", pre=" + pre + ", size=" + tokens.length + ", bos=" + bos + ", eos=" + eos
                + ", eot=" + eot + ", addBos=" + addBos + ", addEos=" + addEos + "]";
    }
}
