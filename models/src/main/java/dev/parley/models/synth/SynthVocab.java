package dev.parley.models.synth;

import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small, self-made byte-level BPE vocabulary (GPT-2 style, {@code tokenizer.ggml.model = gpt2})
 * for synthetic models when no real tokenizer is given: the 256 byte tokens (in GPT-2's
 * byte-to-unicode spelling, so any text tokenizes), merges learned deterministically from a list
 * of common English words, the ChatML special tokens, and pronounceable filler words up to the
 * requested size. Token ids: bytes 0-255 (id = byte value), merged tokens, then
 * {@code <|endoftext|>}, {@code <|im_start|>}, {@code <|im_end|>}, then fillers.
 *
 * <p>Fillers are ordinary tokens ("Ġbako", "tilu", ...) that no merge produces: tokenizing never
 * yields them, but a random model samples them, and they print as words. (Unused {@code [PAD]}
 * tokens would print as nothing, and with a real model's vocabulary size they are most of the
 * vocabulary, so a demo would show empty replies.)
 */
public final class SynthVocab {

    /** GGUF token types (llama.cpp's {@code llama_token_type}). */
    static final int NORMAL = 1, CONTROL = 3;

    public static final String END_OF_TEXT = "<|endoftext|>";
    public static final String IM_START = "<|im_start|>";
    public static final String IM_END = "<|im_end|>";

    /** ChatML, the format Qwen and SmolLM2 chat models use. */
    public static final String CHATML_TEMPLATE = "{% for message in messages %}"
            + "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
            + "{% endfor %}"
            + "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

    private static final int MAX_MERGES = 4000;
    private static final String[] SPECIALS = {END_OF_TEXT, IM_START, IM_END};

    // Common English words in rough frequency order (most frequent first), plus chat words.
    private static final String WORDS = """
            the of and to a in is it you that he was for on are with as I his they be at one have this from or had by
            not word but what some we can out other were all there when up use your how said an each she which do
            their time if will way about many then them write would like so these her long make thing see him two
            has look more day could go come did number sound no most people my over know water than call first who
            may down side been now find any new work part take get place made live where after back little only
            round man year came show every good me give our under name very through just form sentence great think
            say help low line differ turn cause much mean before move right boy old too same tell does set three
            want air well also play small end put home read hand port large spell add even land here must big high
            such follow act why ask men change went light kind off need house picture try us again animal point
            mother world near build self earth father head stand own page should country found answer school grow
            study still learn plant cover food sun four between state keep eye never last let thought city tree
            cross farm hard start might story saw far sea draw left late run don't while press close night real life
            few north open seem together next white children begin got walk example ease paper group always music
            those both mark often letter until mile river car feet care second book carry took science eat room
            friend began idea fish mountain stop once base hear horse cut sure watch color face wood main enough
            plain girl usual young ready above ever red list though feel talk bird soon body dog family direct
            pose leave song measure door product black short numeral class wind question happen complete ship area
            half rock order fire south problem piece told knew pass since top whole king space heard best hour
            better true during hundred five remember step early hold west ground interest reach fast verb sing
            listen six table travel less morning ten simple several vowel toward war lay against pattern slow
            center love person money serve appear road map rain rule govern pull cold notice voice unit power town
            fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest correct able
            pound done beauty drive stood contain front teach week final gave green quick develop ocean warm free
            minute strong special mind behind clear tail produce fact street inch multiply nothing course stay
            wheel full force blue object decide surface deep moon island foot system busy test record boat common
            gold possible plane stead dry wonder laugh thousand ago ran check game shape equate hot miss brought
            heat snow tire bring yes distant fill east paint language among hello thanks please sorry assistant
            user system today tomorrow weather question answer help voice speak listen chat model local private
            """;

    private final String[] tokens;
    private final int[] types;
    private final String[] merges;
    private final int endOfText;
    private final int imStart;
    private final int imEnd;

    private SynthVocab(String[] tokens, int[] types, String[] merges, int endOfText) {
        this.tokens = tokens;
        this.types = types;
        this.merges = merges;
        this.endOfText = endOfText;
        this.imStart = endOfText + 1;
        this.imEnd = endOfText + 2;
    }

    /**
     * Builds a vocabulary of exactly {@code size} tokens, or of its natural size (bytes, every
     * merge the word list supports, specials) when {@code size} is 0.
     *
     * @throws IllegalArgumentException when {@code size} is below 256 + 3
     */
    public static SynthVocab build(int size) {
        int minimum = 256 + SPECIALS.length;
        if (size != 0 && size < minimum) {
            throw new IllegalArgumentException("expected a vocabulary of at least " + minimum
                    + " tokens (256 bytes and 3 specials) but found " + size);
        }
        int mergeBudget = size == 0 ? MAX_MERGES : Math.min(MAX_MERGES, size - minimum);
        String[] byteChars = byteToUnicode();
        List<String> tokenList = new ArrayList<>(List.of(byteChars));
        Set<String> known = new HashSet<>(tokenList);
        List<String> mergeList = learnMerges(byteChars, mergeBudget);
        for (String m : mergeList) {
            String merged = m.replace(" ", "");
            if (known.add(merged)) {
                tokenList.add(merged);
            }
        }
        int eot = tokenList.size();
        tokenList.addAll(List.of(SPECIALS));
        int total = size == 0 ? tokenList.size() : size;
        int[] types = new int[total];
        java.util.Arrays.fill(types, 0, eot, NORMAL);
        java.util.Arrays.fill(types, eot, eot + SPECIALS.length, CONTROL);
        if (tokenList.size() < total) {
            addFillers(tokenList, known, total, byteChars[' ']);
            java.util.Arrays.fill(types, eot + SPECIALS.length, total, NORMAL);
        }
        return new SynthVocab(tokenList.toArray(String[]::new), types, mergeList.toArray(String[]::new), eot);
    }

    public int size() {
        return tokens.length;
    }

    public String[] tokens() {
        return tokens.clone();
    }

    public String[] merges() {
        return merges.clone();
    }

    public int endOfTextId() {
        return endOfText;
    }

    public int imStartId() {
        return imStart;
    }

    public int imEndId() {
        return imEnd;
    }

    /** The {@code tokenizer.*} GGUF keys, as llama.cpp's converter names them. */
    public Map<String, GgufMetadataValue> metadata() {
        Map<String, GgufMetadataValue> m = new LinkedHashMap<>();
        m.put("tokenizer.ggml.model", GgufMetadataValue.of("gpt2"));
        m.put("tokenizer.ggml.pre", GgufMetadataValue.of("gpt-2"));
        m.put("tokenizer.ggml.tokens", GgufMetadataValue.ofStrings(tokens.clone()));
        m.put("tokenizer.ggml.token_type", GgufMetadataValue.ofInt32s(types.clone()));
        m.put("tokenizer.ggml.merges", GgufMetadataValue.ofStrings(merges.clone()));
        m.put("tokenizer.ggml.bos_token_id", GgufMetadataValue.ofUint32(endOfText));
        m.put("tokenizer.ggml.eos_token_id", GgufMetadataValue.ofUint32(imEnd));
        m.put("tokenizer.ggml.padding_token_id", GgufMetadataValue.ofUint32(endOfText));
        m.put("tokenizer.ggml.add_bos_token", new GgufMetadataValue(GgufValueType.BOOL, null, false));
        m.put("tokenizer.chat_template", GgufMetadataValue.of(CHATML_TEMPLATE));
        return m;
    }

    private static final String CONSONANTS = "bdfghjklmnprstvwz";
    private static final String VOWELS = "aeiou";

    /** Appends distinct pseudo-words (consonant-vowel syllables, with and without a leading space) up to {@code total}. */
    private static void addFillers(List<String> tokens, Set<String> known, int total, String space) {
        List<String> syllables = new ArrayList<>();
        for (char c : CONSONANTS.toCharArray()) {
            for (char v : VOWELS.toCharArray()) {
                syllables.add("" + c + v);
            }
        }
        int n = syllables.size();
        for (int len = 2; tokens.size() < total; len++) {
            long combos = (long) Math.pow(n, len);
            for (long k = 0; k < combos && tokens.size() < total; k++) {
                StringBuilder w = new StringBuilder();
                long rest = k;
                for (int i = 0; i < len; i++) {
                    w.append(syllables.get((int) (rest % n)));
                    rest /= n;
                }
                for (String t : new String[] {space + w, w.toString()}) {
                    if (tokens.size() < total && known.add(t)) {
                        tokens.add(t);
                    }
                }
            }
        }
    }

    /**
     * GPT-2's byte-to-unicode table: printable Latin-1 bytes stand for themselves, the others
     * (controls, space, 0x7F-0xA0, 0xAD) map to U+0100 upwards in byte order.
     */
    static String[] byteToUnicode() {
        String[] out = new String[256];
        int next = 256;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            out[b] = String.valueOf((char) (printable ? b : next++));
        }
        return out;
    }

    /** Classic BPE training on the word list; ties are broken by the pair's text, so the result is deterministic. */
    private static List<String> learnMerges(String[] byteChars, int budget) {
        String[] words = WORDS.trim().split("\\s+");
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        String space = byteChars[' '];
        for (int i = 0; i < words.length; i++) {
            int freq = Math.max(1, 2000 / (i + 10)); // Zipf-like: earlier words are more common
            String w = words[i];
            String cap = Character.toUpperCase(w.charAt(0)) + w.substring(1);
            counts.merge(spell(space + encode(w, byteChars)), freq * 4, Integer::sum);
            counts.merge(spell(encode(w, byteChars)), freq, Integer::sum);
            counts.merge(spell(space + encode(cap, byteChars)), Math.max(1, freq / 2), Integer::sum);
        }
        List<List<String>> seqs = new ArrayList<>(counts.keySet().stream().map(ArrayList::new).map(l -> (List<String>) l).toList());
        int[] freqs = counts.values().stream().mapToInt(Integer::intValue).toArray();
        List<String> merges = new ArrayList<>();
        while (merges.size() < budget) {
            Map<String, Integer> pairs = new HashMap<>();
            for (int s = 0; s < seqs.size(); s++) {
                List<String> seq = seqs.get(s);
                for (int j = 0; j + 1 < seq.size(); j++) {
                    pairs.merge(seq.get(j) + " " + seq.get(j + 1), freqs[s], Integer::sum);
                }
            }
            String best = null;
            int bestCount = 1; // a merge must be seen at least twice
            for (Map.Entry<String, Integer> e : pairs.entrySet()) {
                if (e.getValue() > bestCount || (e.getValue() == bestCount && best != null && e.getKey().compareTo(best) < 0)) {
                    best = e.getKey();
                    bestCount = e.getValue();
                }
            }
            if (best == null) {
                break;
            }
            merges.add(best);
            int sp = best.indexOf(' ');
            String a = best.substring(0, sp);
            String b = best.substring(sp + 1);
            for (List<String> seq : seqs) {
                for (int j = 0; j + 1 < seq.size(); j++) {
                    if (seq.get(j).equals(a) && seq.get(j + 1).equals(b)) {
                        seq.set(j, a + b);
                        seq.remove(j + 1);
                    }
                }
            }
        }
        return merges;
    }

    private static String encode(String s, String[] byteChars) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            sb.append(byteChars[b & 0xFF]);
        }
        return sb.toString();
    }

    private static List<String> spell(String encoded) {
        List<String> out = new ArrayList<>();
        encoded.codePoints().forEach(cp -> out.add(Character.toString(cp)));
        return out;
    }
}
