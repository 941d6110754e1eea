package dev.parley.audio.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts a stream of text pieces (tokens from the language model) into sentences as soon as each is
 * complete, so speech can start before the reply is finished. A sentence ends at {@code . ! ?} or an
 * ellipsis (with any closing quotes or brackets) followed by white space, or at a line break; a
 * period after a known abbreviation ("Dr.", "e.g.", "U.S."), an initial ("J.") or inside a number
 * ("3.14") does not end one, nor does an ellipsis or period followed by a lower-case word. A long
 * sentence is cut early at a clause boundary ({@code , ; :} or a dash followed by a space) once the
 * clause is at least {@code clauseMinChars} long. The first piece of a reply has limits of its own
 * ({@code firstClauseMinChars}, cut at a space by twice that length at the latest), because it is
 * what the listener waits for: later pieces are synthesized while earlier ones play. Not thread-safe.
 */
public final class SentenceSplitter {
    /** The clause length above which a comma may end a piece. */
    public static final int DEFAULT_CLAUSE_MIN_CHARS = 60;
    /**
     * The first piece's clause length: a comma after 20 characters ends it, and text without any
     * punctuation is cut at a space before 40 (about 8 tokens, 1-2 s of speech).
     */
    public static final int DEFAULT_FIRST_CLAUSE_MIN_CHARS = 20;

    private static final Set<String> ABBREVIATIONS = Set.of(
            "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "vs", "etc", "e.g", "i.e", "cf", "approx",
            "no", "nos", "inc", "ltd", "co", "corp", "dept", "est", "fig", "vol", "p", "pp", "gen", "gov", "sen", "rep",
            "rev", "lt", "col", "capt", "sgt", "u.s", "u.k", "u.s.a", "a.m", "p.m", "jan", "feb", "mar", "apr", "jun",
            "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "ave", "blvd",
            "min", "max", "misc", "al");
    private static final String CLOSERS = "\"'”’)]»";

    private final int firstClauseMinChars;
    private final int clauseMinChars;
    private final StringBuilder buf = new StringBuilder();
    private int emitted;

    /** With the default first and later clause lengths. */
    public SentenceSplitter() {
        this(DEFAULT_FIRST_CLAUSE_MIN_CHARS, DEFAULT_CLAUSE_MIN_CHARS);
    }

    /** The same clause length for every piece, the first one included (cut at a space by 4 x that length). */
    public SentenceSplitter(int clauseMinChars) {
        this(clauseMinChars, clauseMinChars);
        if (clauseMinChars < 1) {
            throw new IllegalArgumentException("expected a positive clause length but found " + clauseMinChars);
        }
    }

    /**
     * @param firstClauseMinChars clause length after which a comma ends the first piece; without punctuation
     *                            the first piece is cut at a space by twice this length (when it is smaller
     *                            than {@code clauseMinChars}; otherwise the first piece follows the later rules)
     * @param clauseMinChars      the same for later pieces, cut at a space by four times this length
     */
    public SentenceSplitter(int firstClauseMinChars, int clauseMinChars) {
        if (clauseMinChars < 1 || firstClauseMinChars < 1) {
            throw new IllegalArgumentException("expected positive clause lengths but found " + firstClauseMinChars
                    + " and " + clauseMinChars);
        }
        this.firstClauseMinChars = firstClauseMinChars;
        this.clauseMinChars = clauseMinChars;
    }

    /** Adds a piece of text and returns the sentences (or long clauses) it completed, in order. */
    public List<String> feed(String piece) {
        List<String> out = new ArrayList<>();
        if (piece == null || piece.isEmpty()) {
            return out;
        }
        buf.append(piece);
        int end;
        while ((end = findBoundary()) > 0) {
            emit(buf.substring(0, end), out);
            buf.delete(0, end);
        }
        return out;
    }

    /** Returns whatever is left (the reply ended) and empties the splitter. */
    public List<String> flush() {
        List<String> out = new ArrayList<>();
        emit(buf.toString(), out);
        buf.setLength(0);
        return out;
    }

    /** Drops buffered text (the reply was cancelled); the next piece is a first piece again. */
    public void reset() {
        buf.setLength(0);
        emitted = 0;
    }

    private void emit(String s, List<String> out) {
        String t = s.strip();
        boolean hasWordChar = t.codePoints().anyMatch(Character::isLetterOrDigit);
        if (hasWordChar) {
            out.add(t);
            emitted++;
        }
    }

    /** Clause length for the piece being collected. */
    private int clauseMin() {
        return emitted == 0 ? Math.min(firstClauseMinChars, clauseMinChars) : clauseMinChars;
    }

    /** End index (exclusive) of the first complete sentence or long clause in buf, or -1. */
    private int findBoundary() {
        int n = buf.length();
        for (int i = 0; i < n; i++) {
            char c = buf.charAt(i);
            if (c == '\n') {
                if (!buf.substring(0, i).isBlank()) {
                    return i + 1;
                }
                continue;
            }
            if (c == '.' || c == '!' || c == '?' || c == '…') {
                int j = i;
                while (j + 1 < n && isTerminator(buf.charAt(j + 1))) {
                    j++;
                }
                while (j + 1 < n && CLOSERS.indexOf(buf.charAt(j + 1)) >= 0) {
                    j++;
                }
                if (j + 1 >= n) {
                    return -1;       // need the next character to decide
                }
                if (!Character.isWhitespace(buf.charAt(j + 1))) {
                    i = j;
                    continue;        // "3.14", "e.g.x", "!?" inside a word
                }
                String run = buf.substring(i, j + 1);
                boolean strong = run.indexOf('!') >= 0 || run.indexOf('?') >= 0;
                if (!strong) {
                    int next = j + 1;
                    while (next < n && Character.isWhitespace(buf.charAt(next)) && buf.charAt(next) != '\n') {
                        next++;
                    }
                    if (next >= n) {
                        return -1;   // need the next word to rule out "e.g. foo" / "... and"
                    }
                    boolean lowerNext = Character.isLowerCase(buf.charAt(next));
                    boolean ellipsis = run.startsWith("...") || run.startsWith("…");
                    if (lowerNext || (!ellipsis && run.charAt(0) == '.' && isAbbreviation(i))) {
                        i = j;
                        continue;
                    }
                }
                return j + 1;
            }
            if ((c == ',' || c == ';' || c == ':' || c == '—' || c == '–') && i >= clauseMin()
                    && i + 1 < n && Character.isWhitespace(buf.charAt(i + 1))) {
                return i + 1;
            }
        }
        return n >= maxChars() ? forcedBoundary() : -1;
    }

    /**
     * Text this long without a sentence or clause end is cut at its last space anyway, so a reply
     * without punctuation (a list, code, a model rambling) does not keep everything from being spoken
     * until it ends.
     */
    private int maxChars() {
        return emitted == 0 && firstClauseMinChars < clauseMinChars ? firstClauseMinChars * 2 : clauseMinChars * 4;
    }

    private int forcedBoundary() {
        int max = maxChars();
        for (int i = max - 1; i >= clauseMin(); i--) {
            if (Character.isWhitespace(buf.charAt(i))) {
                return i + 1;
            }
        }
        return max;      // one very long "word": cut it
    }

    private static boolean isTerminator(char c) {
        return c == '.' || c == '!' || c == '?' || c == '…';
    }

    /** Whether the word ending just before the period at {@code dot} is an abbreviation or initial. */
    private boolean isAbbreviation(int dot) {
        int start = dot;
        while (start > 0 && !Character.isWhitespace(buf.charAt(start - 1)) && "\"'“‘([".indexOf(buf.charAt(start - 1)) < 0) {
            start--;
        }
        String word = buf.substring(start, dot);
        if (word.isEmpty()) {
            return false;
        }
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0))) {
            return true;     // an initial: "J. R. R. Tolkien"
        }
        return ABBREVIATIONS.contains(word.toLowerCase(Locale.ROOT));
    }
}
