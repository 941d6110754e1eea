package dev.parley.engine.api;

import dev.parley.engine.tokenizer.StreamingDecoder;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The exact token ids a local engine fed and generated for each conversation, so that the next turn's prompt
 * reuses them instead of tokenizing the whole history again. Tokenizing a reply's text rarely gives back the ids
 * the model generated (always with random weights, sometimes with real ones), and then the batcher's cached
 * prefix stops matching at the first reply and everything after it is recomputed every turn. As llama.cpp's
 * server does with its cached prompt tokens, a new prompt whose rendered text starts with the text of a
 * remembered turn (its prompt, then its reply as generated) takes that turn's ids and tokenizes only the rest;
 * any other prompt (edited history, another system prompt) is tokenized whole.
 *
 * <p>A conversation keeps its {@link #TURNS_KEPT} most recent turns, so a withdrawn speculative turn (a reply to
 * a user message that was then replaced) does not hide the turn before it. Keyed by conversation id only: one
 * conversation's ids never serve another. Thread-safe.
 */
final class ConversationPrompts {

    /** Turns remembered per conversation. */
    static final int TURNS_KEPT = 4;
    /** Conversations remembered, least recently used first out. */
    static final int CONVERSATIONS_KEPT = 256;

    /**
     * One turn: the ids of its prompt text and of its reply; {@code replyEnds[j]} is the length of the text of the
     * first {@code j + 1} reply ids.
     */
    private record Turn(String promptText, int[] promptIds, String replyText, int[] replyIds, int[] replyEnds) {
    }

    /** A prompt's ids and how many of them were taken from a remembered turn (0: tokenized whole). */
    record Prompt(int[] ids, int reusedIds) {
    }

    private final Tokenizer tokenizer;
    private final LinkedHashMap<String, ArrayDeque<Turn>> turns = new LinkedHashMap<>(16, 0.75f, true);
    /** Provisional keys renamed, to the name they now have (a turn still running under one is kept there). */
    private final LinkedHashMap<String, String> renamed = new LinkedHashMap<>();

    ConversationPrompts(Tokenizer tokenizer) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    }

    /**
     * The ids of {@code text} (a rendered chat prompt) for {@code conversation}: the longest remembered prefix,
     * then the rest tokenized with special tokens parsed; without such a prefix (or a conversation), the whole
     * text tokenized with BOS when {@code addBos}.
     */
    Prompt encode(String conversation, String text, boolean addBos) {
        Turn best = null;
        int bestChars = 0;
        int bestReplyIds = -1;
        if (conversation != null) {
            synchronized (this) {
                ArrayDeque<Turn> kept = turns.get(renamed.getOrDefault(conversation, conversation));
                if (kept != null) {
                    for (Turn t : kept) {
                        if (!text.startsWith(t.promptText())) {
                            continue;
                        }
                        long m = Math.max(matchingReply(t, text, 0), matchingReply(t, text, leadingSpace(t.replyText())));
                        int chars = t.promptText().length() + (int) (m >>> 32);
                        if (best == null || chars > bestChars) {
                            best = t;
                            bestChars = chars;
                            bestReplyIds = (int) m;
                        }
                    }
                }
            }
        }
        if (best == null) {
            return new Prompt(tokenizer.encode(text, addBos, true), 0);
        }
        String tail = text.substring(bestChars);
        int[] rest = tail.isEmpty() ? new int[0] : tokenizer.encode(tail, false, true);
        if (!spells(rest, tail)) {
            // The tail alone tokenizes differently from within the text (a space prefix added to its first piece):
            // what is fed must spell exactly the rendered text, so tokenize it whole.
            return new Prompt(tokenizer.encode(text, addBos, true), 0);
        }
        int reused = best.promptIds().length + bestReplyIds;
        int[] ids = Arrays.copyOf(best.promptIds(), reused + rest.length);
        System.arraycopy(best.replyIds(), 0, ids, best.promptIds().length, bestReplyIds);
        System.arraycopy(rest, 0, ids, reused, rest.length);
        return new Prompt(ids, reused);
    }

    /**
     * The reply ids of {@code t} that {@code text} continues after the turn's prompt, in the low 32 bits, and the
     * characters of {@code text} they stand for, in the high ones. With {@code skipped > 0} the text may leave out
     * the reply's first {@code skipped} characters (its leading white space, which the app strips before storing
     * the reply): those ids are reused with the space the model really generated, as {@code parley talk}'s
     * conversation does.
     */
    private static long matchingReply(Turn t, String text, int skipped) {
        int base = t.promptText().length();
        int n = 0;
        int chars = 0;
        for (int j = 0; j < t.replyIds().length; j++) {
            int end = t.replyEnds()[j];
            if (end < 0 || end < skipped) {
                continue;
            }
            int len = end - skipped;
            if (base + len > text.length() || !text.regionMatches(base, t.replyText(), skipped, len)) {
                break;
            }
            n = j + 1;
            chars = len;
        }
        return n == 0 ? 0 : ((long) chars << 32) | n;
    }

    /** Whether {@code ids}, decoded as the batcher streams them (no first space dropped), give exactly {@code text}. */
    private boolean spells(int[] ids, String text) {
        StreamingDecoder decoder = new StreamingDecoder(tokenizer, true, false);
        StringBuilder out = new StringBuilder(text.length());
        for (int id : ids) {
            out.append(decoder.push(id));
            if (out.length() > text.length()) {
                return false;
            }
        }
        out.append(decoder.flush());
        return out.toString().equals(text);
    }

    private static int leadingSpace(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /**
     * Remembers a finished turn of {@code conversation}: the prompt {@code promptText} was fed as
     * {@code promptIds}, and the model generated {@code generated}, shown as {@code shownReply}. Only the reply ids
     * whose text lies within the shown reply are kept: ids of a stop string (text the model wrote but the user
     * never sees) are not.
     */
    void remember(String conversation, String promptText, int[] promptIds, int[] generated, String shownReply) {
        if (conversation == null) {
            return;
        }
        StreamingDecoder decoder = new StreamingDecoder(tokenizer, true, false);
        StringBuilder text = new StringBuilder();
        int[] ends = new int[generated.length];
        int kept = 0;
        for (int j = 0; j < generated.length; j++) {
            text.append(decoder.push(generated[j]));
            if (text.length() > shownReply.length() || !shownReply.startsWith(text.toString())) {
                break;
            }
            if (decoder.pendingBytes() == 0) {
                kept = j + 1;
                ends[j] = text.length();
            } else {
                ends[j] = -1; // ends inside a character: no cut here
            }
        }
        Turn turn = new Turn(promptText, promptIds.clone(), shownReply, Arrays.copyOf(generated, kept),
                Arrays.copyOf(ends, kept));
        synchronized (this) {
            ArrayDeque<Turn> list = turns.computeIfAbsent(renamed.getOrDefault(conversation, conversation),
                    k -> new ArrayDeque<>());
            list.addFirst(turn);
            while (list.size() > TURNS_KEPT) {
                list.removeLast();
            }
            Iterator<Map.Entry<String, ArrayDeque<Turn>>> it = turns.entrySet().iterator();
            while (turns.size() > CONVERSATIONS_KEPT && it.hasNext()) {
                it.next();
                it.remove();
            }
        }
    }

    /**
     * {@code from}'s turns are {@code to}'s from now on (before any of {@code to}'s own, which are older), and a
     * turn still to be remembered under {@code from} goes to {@code to}.
     */
    synchronized void rename(String from, String to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (from.equals(to)) {
            return;
        }
        ArrayDeque<Turn> moved = turns.remove(from);
        if (moved != null) {
            ArrayDeque<Turn> list = turns.computeIfAbsent(to, k -> new ArrayDeque<>());
            Iterator<Turn> newestLast = moved.descendingIterator();
            while (newestLast.hasNext()) {
                list.addFirst(newestLast.next());
            }
            while (list.size() > TURNS_KEPT) {
                list.removeLast();
            }
        }
        renamed.put(from, to);
        Iterator<String> oldest = renamed.keySet().iterator();
        while (renamed.size() > CONVERSATIONS_KEPT && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }

    /** Forgets {@code conversation}'s turns. */
    synchronized void forget(String conversation) {
        turns.remove(conversation);
    }
}
