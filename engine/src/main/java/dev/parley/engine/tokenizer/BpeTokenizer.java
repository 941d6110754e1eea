package dev.parley.engine.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Byte-level BPE tokenizer ({@code tokenizer.ggml.model = gpt2}) with llama.cpp's algorithm
 * ({@code llm_tokenizer_bpe_session}): text is cut by the {@link PreTokenizer}, each word's UTF-8
 * bytes are spelled with {@link ByteUnicodeMapping}, then adjacent symbols are merged by merge
 * rank (lowest first, ties leftmost). Symbols left that are not tokens fall back to their single
 * (ASCII) bytes, as llama.cpp does.
 */
final class BpeTokenizer implements Tokenizer {

    private static final char PAIR_SEPARATOR = '\u0001';

    private final Vocabulary vocabulary;
    private final PreTokenizer preTokenizer;
    private final boolean ignoreMerges;
    private final Map<String, Integer> ids;
    private final Map<String, Integer> ranks;
    private final ByteUnicodeMapping bytes = new ByteUnicodeMapping();
    private final SpecialTokenSplitter splitter;
    private final byte[][] pieces;

    /** {@code ids} maps every token text to its id (read-only, shared); {@code merges} are "left right" in rank order. */
    BpeTokenizer(Vocabulary vocabulary, Map<String, Integer> ids, String[] merges, PreTokenizer preTokenizer,
                 boolean ignoreMerges, String generalName) {
        this.vocabulary = vocabulary;
        this.preTokenizer = preTokenizer;
        this.ignoreMerges = ignoreMerges;
        this.ids = ids;
        this.ranks = new HashMap<>(merges.length * 2);
        for (int rank = 0; rank < merges.length; rank++) {
            String merge = merges[rank];
            int space = merge.indexOf(' ', 1);
            String key = space < 0 ? PAIR_SEPARATOR + "" : merge.substring(0, space) + PAIR_SEPARATOR + merge.substring(space + 1);
            ranks.putIfAbsent(key, rank);
        }
        this.splitter = new SpecialTokenSplitter(vocabulary, generalName);
        this.pieces = TokenPieces.table(vocabulary, this::decodeByteLevel);
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    /** The pre-tokenizer in use (for tests and diagnostics). */
    PreTokenizer preTokenizer() {
        return preTokenizer;
    }

    @Override
    public int[] encode(String text, boolean addSpecial, boolean parseSpecial) {
        java.util.Objects.requireNonNull(text, "text");
        IntList out = new IntList();
        if (addSpecial && vocabulary.addBos()) {
            out.add(vocabulary.bos());
        }
        for (SpecialTokenSplitter.Fragment fragment : splitter.split(text, parseSpecial)) {
            if (fragment.isToken()) {
                out.add(fragment.token());
                continue;
            }
            for (String word : preTokenizer.split(fragment.text())) {
                encodeWord(bytes.encodeUtf8(word), out);
            }
        }
        if (addSpecial && vocabulary.addEos()) {
            out.add(vocabulary.eos());
        }
        return out.toArray();
    }

    /** A candidate merge of symbols {@code left} and {@code right} (text {@code text}) with merge rank {@code rank}. */
    private record Bigram(int left, int right, String text, int rank) {
    }

    private void encodeWord(String word, IntList out) {
        if (ignoreMerges) {
            Integer whole = ids.get(word);
            if (whole != null) {
                out.add(whole);
                return;
            }
        }
        // every character of a byte-encoded word is one BMP code point standing for one byte
        int n = word.length();
        int[] len = new int[n];
        int[] prev = new int[n];
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            len[i] = 1;
            prev[i] = i - 1;
            next[i] = i + 1 < n ? i + 1 : -1;
        }
        PriorityQueue<Bigram> queue = new PriorityQueue<>(Math.max(1, n),
                (a, b) -> a.rank != b.rank ? Integer.compare(a.rank, b.rank) : Integer.compare(a.left, b.left));
        for (int i = 1; i < n; i++) {
            offer(word, len, i - 1, i, queue);
        }
        while (!queue.isEmpty()) {
            Bigram bigram = queue.poll();
            int l = bigram.left;
            int r = bigram.right;
            if (len[l] == 0 || len[r] == 0 || len[l] + len[r] != bigram.text.length()
                    || !word.startsWith(bigram.text, l)) {
                continue;
            }
            len[l] += len[r];
            len[r] = 0;
            next[l] = next[r];
            if (next[r] >= 0) {
                prev[next[r]] = l;
            }
            offer(word, len, prev[l], l, queue);
            offer(word, len, l, next[l], queue);
        }
        for (int i = 0; i != -1 && n > 0; i = next[i]) {
            String symbol = word.substring(i, i + len[i]);
            Integer id = ids.get(symbol);
            if (id != null) {
                out.add(id);
                continue;
            }
            for (byte b : symbol.getBytes(StandardCharsets.UTF_8)) {
                if (b >= 0) {
                    Integer single = ids.get(String.valueOf((char) b));
                    if (single != null) {
                        out.add(single);
                    }
                }
            }
        }
    }

    private void offer(String word, int[] len, int left, int right, PriorityQueue<Bigram> queue) {
        if (left < 0 || right < 0) {
            return;
        }
        String leftText = word.substring(left, left + len[left]);
        String rightText = word.substring(right, right + len[right]);
        Integer rank = ranks.get(leftText + PAIR_SEPARATOR + rightText);
        if (rank != null) {
            queue.add(new Bigram(left, right, leftText + rightText, rank));
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


    private byte[] decodeByteLevel(String text) {
        byte[] out = new byte[text.length()];
        for (int i = 0; i < text.length(); i++) {
            int b = bytes.decode(text.charAt(i));
            if (b < 0) {
                return decodeMixed(text);
            }
            out[i] = (byte) b;
        }
        return out;
    }

    /** Tokens with characters outside the byte mapping keep those characters' UTF-8 bytes. */
    private byte[] decodeMixed(String text) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length() * 2);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int b = bytes.decode(cp);
            if (b >= 0) {
                out.write(b);
            } else {
                byte[] raw = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(raw, 0, raw.length);
            }
            i += Character.charCount(cp);
        }
        return out.toByteArray();
    }
}
