package dev.parley.audio.text;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites text for a speech synthesizer: strips markdown (emphasis, headings, code marks, list
 * bullets, links), and spells out money ("$3.50" -> "three dollars fifty"), percentages, clock
 * times, ordinals, decimals, plain and grouped numbers, units after numbers, common symbols
 * ({@code & % + = ° @}) and abbreviations ("Dr." -> "Doctor", "e.g." -> "for example").
 * Stateless and thread-safe.
 */
public final class SpeechNormalizer {
    private record Rule(Pattern pattern, Function<MatchResult, String> replacement) {
    }

    private static final Map<String, String> ABBREVIATIONS = Map.ofEntries(
            Map.entry("Dr.", "Doctor"), Map.entry("Mr.", "Mister"), Map.entry("Mrs.", "Missus"), Map.entry("Ms.", "Miz"),
            Map.entry("Prof.", "Professor"), Map.entry("Jr.", "Junior"), Map.entry("Sr.", "Senior"),
            Map.entry("St.", "Saint"), Map.entry("Mt.", "Mount"), Map.entry("vs.", "versus"), Map.entry("etc.", "et cetera"),
            Map.entry("e.g.", "for example"), Map.entry("i.e.", "that is"), Map.entry("approx.", "approximately"),
            Map.entry("U.S.", "U S"), Map.entry("U.K.", "U K"), Map.entry("a.m.", "A M"), Map.entry("p.m.", "P M"),
            Map.entry("No.", "number"), Map.entry("Inc.", "Incorporated"), Map.entry("Ltd.", "Limited"));
    private static final Map<String, String[]> UNITS = Map.ofEntries(
            Map.entry("km", new String[] {"kilometer", "kilometers"}), Map.entry("kg", new String[] {"kilogram", "kilograms"}),
            Map.entry("cm", new String[] {"centimeter", "centimeters"}), Map.entry("mm", new String[] {"millimeter", "millimeters"}),
            Map.entry("mph", new String[] {"mile per hour", "miles per hour"}),
            Map.entry("km/h", new String[] {"kilometer per hour", "kilometers per hour"}),
            Map.entry("ms", new String[] {"millisecond", "milliseconds"}), Map.entry("GB", new String[] {"gigabyte", "gigabytes"}),
            Map.entry("MB", new String[] {"megabyte", "megabytes"}), Map.entry("kB", new String[] {"kilobyte", "kilobytes"}),
            Map.entry("lb", new String[] {"pound", "pounds"}), Map.entry("lbs", new String[] {"pound", "pounds"}),
            Map.entry("ft", new String[] {"foot", "feet"}), Map.entry("GHz", new String[] {"gigahertz", "gigahertz"}),
            Map.entry("kHz", new String[] {"kilohertz", "kilohertz"}), Map.entry("Hz", new String[] {"hertz", "hertz"}));
    private static final Map<String, String[]> CURRENCIES = Map.of(
            "$", new String[] {"dollar", "dollars", "cent", "cents"},
            "€", new String[] {"euro", "euros", "cent", "cents"},
            "£", new String[] {"pound", "pounds", "penny", "pence"});

    private static final String NUM = "\\d{1,3}(?:,\\d{3})+|\\d+";

    private final Rule[] rules = {
        // markdown
        rule("(?m)^\\s*```.*$", m -> ""),
        rule("\\[([^\\]]+)\\]\\((?:[^)]+)\\)", m -> m.group(1)),
        rule("(?m)^\\s{0,3}#{1,6}\\s+", m -> ""),
        rule("(?m)^\\s*[-*+•]\\s+", m -> ""),
        rule("(?m)^\\s*>\\s?", m -> ""),
        rule("(\\*\\*|__|\\*|~~|`)", m -> ""),
        rule("(?<![\\w])_([^_]+)_(?![\\w])", m -> m.group(1)),
        rule("https?://\\S+", m -> "a link"),
        // money: $3.50, $1,000, €5
        rule("([$€£])\\s?(" + NUM + ")(?:\\.(\\d{1,2}))?(?:\\s+(million|billion|thousand|trillion))?\\b", this::money),
        // percentages
        rule("(-?)(" + NUM + ")(?:\\.(\\d+))?\\s?%", m -> (m.group(1).isEmpty() ? "" : "minus ")
                + number(m.group(2), m.group(3)) + " percent"),
        // times: 10:30, 7:05 pm, 7pm, 9 a.m.
        rule("\\b([01]?\\d|2[0-3]):([0-5]\\d)(?:\\s?([aApP])\\.?[mM]\\.?)?(?![\\w:])", m -> NumberWords.time(
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) + ampm(m.group(3))),
        rule("\\b(1[0-2]|0?[1-9])\\s?([aApP])\\.?[mM]\\b\\.?", m -> NumberWords.cardinal(Integer.parseInt(m.group(1))) + ampm(m.group(2))),
        // temperatures and degrees
        rule("(-?)(" + NUM + ")(?:\\.(\\d+))?\\s?°\\s?([CF])\\b", m -> (m.group(1).isEmpty() ? "" : "minus ")
                + number(m.group(2), m.group(3)) + " degrees " + (m.group(4).equals("C") ? "Celsius" : "Fahrenheit")),
        rule("°", m -> " degrees"),
        // ordinals: 1st, 22nd, 103rd, 4th
        rule("\\b(\\d+)(st|nd|rd|th)\\b", m -> NumberWords.ordinal(Long.parseLong(m.group(1)))),
        // years after "in", "since", "from", "by", "until"
        rule("\\b([Ii]n|[Ss]ince|[Ff]rom|[Bb]y|[Uu]ntil)\\s+(1[1-9]\\d\\d|20\\d\\d)\\b(?![.,]\\d)",
                m -> m.group(1) + " " + NumberWords.year(Integer.parseInt(m.group(2)))),
        // numbers with units
        rule("(" + NUM + ")(?:\\.(\\d+))?\\s?(km/h|km|kg|cm|mm|mph|ms|GB|MB|kB|lbs|lb|ft|GHz|kHz|Hz)\\b", this::unit),
        // abbreviations (before symbols so "No." is not touched by anything else)
        rule("(?<![\\w.])(Dr|Mr|Mrs|Ms|Prof|Jr|Sr|St|Mt|vs|etc|approx|Inc|Ltd)\\.", m -> ABBREVIATIONS.get(m.group(1) + ".")),
        rule("(?<![\\w.])(e\\.g|i\\.e|U\\.S|U\\.K|a\\.m|p\\.m)\\.", m -> ABBREVIATIONS.get(m.group(1) + ".")),
        rule("(?<![\\w.])No\\.\\s?(?=\\d)", m -> "number "),
        // symbols between or around words and numbers
        rule("\\s*&\\s*", m -> " and "),
        rule("(?<=[\\w)])\\s*\\+\\s*(?=[\\w(])", m -> " plus "),
        rule("(?<=[\\w)])\\s*=\\s*(?=[\\w(-])", m -> " equals "),
        rule("(?<=\\s|^)\\+(?=\\d)", m -> "plus "),
        rule("(?<=[\\w)])\\s*×\\s*(?=[\\w(])", m -> " times "),
        rule("\\s*@\\s*", m -> " at "),
        rule("#(?=\\d)", m -> "number "),
        rule("~\\s?(?=\\d)", m -> "about "),
        rule("\\band/or\\b", m -> "and or"),
        rule("(?<=\\w)/(?=\\w)", m -> " or "),
        // signed and decimal numbers, then plain numbers
        rule("(?<![\\w.])-(?=\\d)", m -> "minus "),
        rule("(" + NUM + ")\\.(\\d+)", m -> number(m.group(1), m.group(2))),
        rule("\\b(" + NUM + ")\\b", m -> number(m.group(1), null)),
        // leftovers that synthesizers read badly
        rule("[\\p{So}\\p{Cs}\\x{FE0F}]", m -> ""),
        rule("[ \\t]{2,}", m -> " "),
    };

    private static Rule rule(String regex, Function<MatchResult, String> f) {
        return new Rule(Pattern.compile(regex), f);
    }

    /** The text as it should be spoken. */
    public String normalize(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        String s = text;
        for (Rule r : rules) {
            Matcher m = r.pattern().matcher(s);
            s = m.replaceAll(mr -> Matcher.quoteReplacement(r.replacement().apply(mr)));
        }
        return s.strip();
    }

    private String money(MatchResult m) {
        String[] names = CURRENCIES.get(m.group(1));
        String scale = m.group(4);
        long whole = parse(m.group(2));
        if (scale != null) {
            return number(m.group(2), m.group(3)) + " " + scale + " " + names[1];
        }
        String main = NumberWords.cardinal(whole) + " " + (whole == 1 ? names[0] : names[1]);
        if (m.group(3) == null) {
            return main;
        }
        String c = m.group(3).length() == 1 ? m.group(3) + "0" : m.group(3);
        int cents = Integer.parseInt(c);
        if (cents == 0) {
            return main;
        }
        if (whole == 0) {
            return NumberWords.cardinal(cents) + " " + (cents == 1 ? names[2] : names[3]);
        }
        return main + " " + NumberWords.cardinal(cents);
    }

    private String unit(MatchResult m) {
        String[] names = UNITS.get(m.group(3));
        boolean one = m.group(2) == null && parse(m.group(1)) == 1;
        return number(m.group(1), m.group(2)) + " " + (one ? names[0] : names[1]);
    }

    private static String ampm(String letter) {
        return letter == null ? "" : " " + letter.toUpperCase(Locale.ROOT) + " M";
    }

    /** Words for an integer part (may have thousands commas) and an optional fraction part. */
    private static String number(String integerPart, String fraction) {
        String digitsOnly = integerPart.replace(",", "");
        String head = digitsOnly.length() > 15 ? NumberWords.digits(digitsOnly) : NumberWords.cardinal(Long.parseLong(digitsOnly));
        if (!integerPart.contains(",") && digitsOnly.length() > 1 && digitsOnly.startsWith("0")) {
            head = NumberWords.digits(digitsOnly);     // "007"
        }
        return fraction == null || fraction.isEmpty() ? head : head + " point " + NumberWords.digits(fraction);
    }

    private static long parse(String grouped) {
        String d = grouped.replace(",", "");
        return d.length() > 15 ? Long.MAX_VALUE : Long.parseLong(d);
    }
}
