package dev.parley.engine.tokenizer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Cuts text around the special tokens it names, as llama.cpp's {@code tokenizer_st_partition}:
 * special tokens are tried longest first, every occurrence is cut out. USER_DEFINED tokens are
 * always recognised (as Hugging Face tokenizers do); CONTROL and UNKNOWN ones only when
 * {@code parseSpecial} is true. Phi-3 vocabularies (by {@code general.name}) also drop the white
 * space right of most special tokens, as llama.cpp does.
 */
final class SpecialTokenSplitter {

    /** A piece of input: raw text ({@code token == -1}) or one special token. */
    record Fragment(String text, int token) {
        boolean isToken() {
            return token >= 0;
        }
    }

    private final int[] specials;
    private final String[] texts;
    private final boolean[] controlOrUnknown;
    private final boolean[] rstrip;

    SpecialTokenSplitter(Vocabulary vocabulary, String generalName) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < vocabulary.size(); id++) {
            TokenType t = vocabulary.type(id);
            if (t != null && t.isSpecial()) {
                ids.add(id);
            }
        }
        ids.sort(Comparator.comparingInt((Integer id) -> utf8Length(vocabulary.token(id))).reversed()
                .thenComparingInt(id -> id));
        int n = ids.size();
        specials = new int[n];
        texts = new String[n];
        controlOrUnknown = new boolean[n];
        rstrip = new boolean[n];
        String name = generalName.toLowerCase(java.util.Locale.ROOT);
        boolean phi3 = name.contains("phi-3") || name.contains("phi3");
        for (int i = 0; i < n; i++) {
            int id = ids.get(i);
            specials[i] = id;
            texts[i] = vocabulary.token(id);
            TokenType t = vocabulary.type(id);
            controlOrUnknown[i] = t == TokenType.CONTROL || t == TokenType.UNKNOWN;
            String text = texts[i];
            rstrip[i] = phi3 && !text.equals("<unk>") && !text.equals("<s>") && !text.equals("<|endoftext|>");
        }
    }

    /** The fragments of {@code text} (none for empty text). */
    List<Fragment> split(String text, boolean parseSpecial) {
        List<Fragment> fragments = new ArrayList<>();
        if (text.isEmpty()) {
            return fragments;
        }
        fragments.add(new Fragment(text, -1));
        for (int s = 0; s < specials.length; s++) {
            if (!parseSpecial && controlOrUnknown[s]) {
                continue;
            }
            String special = texts[s];
            List<Fragment> next = null;
            for (int f = 0; f < fragments.size(); f++) {
                Fragment fragment = fragments.get(f);
                int match = fragment.isToken() ? -1 : fragment.text().indexOf(special);
                if (match < 0) {
                    if (next != null) {
                        next.add(fragment);
                    }
                    continue;
                }
                if (next == null) {
                    next = new ArrayList<>(fragments.subList(0, f));
                }
                cut(fragment.text(), match, s, next);
            }
            if (next != null) {
                fragments = next;
            }
        }
        return fragments;
    }

    private void cut(String raw, int firstMatch, int s, List<Fragment> out) {
        String special = texts[s];
        int from = 0;
        int match = firstMatch;
        while (match >= 0) {
            if (match > from) {
                out.add(new Fragment(raw.substring(from, match), -1));
            }
            out.add(new Fragment(special, specials[s]));
            from = match + special.length();
            if (rstrip[s]) {
                while (from < raw.length() && isCSpace(raw.charAt(from))) {
                    from++;
                }
            }
            match = raw.indexOf(special, from);
        }
        if (from < raw.length()) {
            out.add(new Fragment(raw.substring(from), -1));
        }
    }

    private static boolean isCSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
