package dev.parley.engine.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * SentencePiece-style tokenizer ({@code tokenizer.ggml.model = llama}) with llama.cpp's algorithm
 * ({@code llm_tokenizer_spm_session}): spaces become U+2581, a space is prefixed to text that
 * starts the input or follows a special token (when {@code add_space_prefix}), then adjacent
 * symbols (initially single code points) are merged greedily by the score of the merged token,
 * best first (ties: leftmost), and symbols that are not tokens fall back to {@code <0xXX>} byte
 * tokens.
 */
final class SentencePieceTokenizer implements Tokenizer {

    private static final char SPACE_MARK = '\u2581';

    private final Vocabulary vocabulary;
    private final Map<String, Integer> ids;
    private final int[] byteTokens = new int[256];
    private final SpecialTokenSplitter splitter;
    private final byte[][] pieces;

    /** {@code ids} maps every token text to its id (read-only, shared). */
    SentencePieceTokenizer(Vocabulary vocabulary, Map<String, Integer> ids, String generalName) {
        this.vocabulary = vocabulary;
        int n = vocabulary.size();
        this.ids = ids;
        int unknown = n > 0 ? 0 : -1;
        for (int b = 0; b < 256; b++) {
            Integer id = ids.get(String.format("<0x%02X>", b));
            if (id == null && b < 0x80) {
                id = ids.get(String.valueOf((char) b));
            }
            byteTokens[b] = id != null ? id : unknown;
        }
        this.splitter = new SpecialTokenSplitter(vocabulary, generalName);
        this.pieces = TokenPieces.table(vocabulary, text -> text.replace(SPACE_MARK, ' ').getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public int[] encode(String text, boolean addSpecial, boolean parseSpecial) {
        java.util.Objects.requireNonNull(text, "text");
        IntList out = new IntList();
        if (addSpecial && vocabulary.addBos()) {
            out.add(vocabulary.bos());
        }
        boolean previousSpecial = true;
        for (SpecialTokenSplitter.Fragment fragment : splitter.split(text, parseSpecial)) {
            if (fragment.isToken()) {
                out.add(fragment.token());
                previousSpecial = true;
            } else {
                String raw = vocabulary.addSpacePrefix() && previousSpecial ? " " + fragment.text() : fragment.text();
                encodeFragment(raw.replace(' ', SPACE_MARK), out);
                previousSpecial = false;
            }
        }
        if (addSpecial && vocabulary.addEos()) {
            out.add(vocabulary.eos());
        }
        return out.toArray();
    }

    /** A candidate merge of symbols {@code left} and {@code right} into a token of {@code score}. */
    private record Bigram(int left, int right, float score, int size) {
    }

    private void encodeFragment(String text, IntList out) {
        int n = text.codePointCount(0, text.length());
        if (n == 0) {
            return;
        }
        int[] start = new int[n];
        int[] len = new int[n];
        int[] prev = new int[n];
        int[] next = new int[n];
        for (int i = 0, off = 0; i < n; i++) {
            int c = Character.charCount(text.codePointAt(off));
            start[i] = off;
            len[i] = c;
            prev[i] = i - 1;
            next[i] = i + 1 < n ? i + 1 : -1;
            off += c;
        }
        PriorityQueue<Bigram> queue = new PriorityQueue<>(Math.max(1, n),
                (a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.left, b.left));
        for (int i = 1; i < n; i++) {
            offer(text, start, len, i - 1, i, queue);
        }
        while (!queue.isEmpty()) {
            Bigram bigram = queue.poll();
            int l = bigram.left;
            int r = bigram.right;
            if (len[l] == 0 || len[r] == 0 || len[l] + len[r] != bigram.size) {
                continue;
            }
            len[l] += len[r];
            len[r] = 0;
            next[l] = next[r];
            if (next[r] >= 0) {
                prev[next[r]] = l;
            }
            offer(text, start, len, prev[l], l, queue);
            offer(text, start, len, l, next[l], queue);
        }
        for (int i = 0; i != -1; i = next[i]) {
            String symbol = text.substring(start[i], start[i] + len[i]);
            Integer id = ids.get(symbol);
            if (id != null) {
                out.add(id);
            } else {
                for (byte b : symbol.getBytes(StandardCharsets.UTF_8)) {
                    out.add(byteTokens[b & 0xFF]);
                }
            }
        }
    }

    private void offer(String text, int[] start, int[] len, int left, int right, PriorityQueue<Bigram> queue) {
        if (left < 0 || right < 0) {
            return;
        }
        int size = len[left] + len[right];
        Integer id = ids.get(text.substring(start[left], start[left] + size));
        if (id != null) {
            queue.add(new Bigram(left, right, vocabulary.score(id), size));
        }
    }

    @Override
    public String decode(int[] ids) {
        return TokenPieces.join(this, ids, vocabulary.addSpacePrefix());
    }

    @Override
    public byte[] pieceBytes(int id) {
        return TokenPieces.copy(pieces, id);
    }

}
