package dev.parley.audio.text;

/**
 * English number names: cardinals ("twenty-five"), ordinals ("twenty-first"), digit strings
 * ("one four"), years ("nineteen ninety-nine") and clock times ("seven oh five").
 */
public final class NumberWords {
    private static final String[] SMALL = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
        "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
    private static final String[] TENS = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
    private static final String[] SCALES = {"", " thousand", " million", " billion", " trillion", " quadrillion"};

    private NumberWords() {
    }

    /** Cardinal words for {@code n}, e.g. -1005 -> "minus one thousand five". */
    public static String cardinal(long n) {
        if (n == Long.MIN_VALUE) {
            return "minus " + digits(Long.toString(n).substring(1));
        }
        if (n < 0) {
            return "minus " + cardinal(-n);
        }
        if (n < 1000) {
            return belowThousand((int) n);
        }
        StringBuilder sb = new StringBuilder();
        int scale = 0;
        String result = "";
        while (n > 0) {
            int group = (int) (n % 1000);
            if (group != 0) {
                String words = belowThousand(group) + SCALES[scale];
                result = result.isEmpty() ? words : words + " " + result;
            }
            n /= 1000;
            scale++;
        }
        sb.append(result);
        return sb.toString();
    }

    private static String belowThousand(int n) {
        if (n < 20) {
            return SMALL[n];
        }
        if (n < 100) {
            return TENS[n / 10] + (n % 10 == 0 ? "" : "-" + SMALL[n % 10]);
        }
        return SMALL[n / 100] + " hundred" + (n % 100 == 0 ? "" : " " + belowThousand(n % 100));
    }

    /** Ordinal words, e.g. 21 -> "twenty-first", 100 -> "one hundredth". */
    public static String ordinal(long n) {
        String c = cardinal(n);
        int cut = Math.max(c.lastIndexOf(' '), c.lastIndexOf('-')) + 1;
        String head = c.substring(0, cut);
        String last = c.substring(cut);
        String ord = switch (last) {
            case "one" -> "first";
            case "two" -> "second";
            case "three" -> "third";
            case "five" -> "fifth";
            case "eight" -> "eighth";
            case "nine" -> "ninth";
            case "twelve" -> "twelfth";
            default -> last.endsWith("y") ? last.substring(0, last.length() - 1) + "ieth" : last + "th";
        };
        return head + ord;
    }

    /** Each digit spoken, e.g. "0142" -> "zero one four two". */
    public static String digits(String ds) {
        StringBuilder sb = new StringBuilder();
        for (char ch : ds.toCharArray()) {
            if (ch >= '0' && ch <= '9') {
                if (!sb.isEmpty()) {
                    sb.append(' ');
                }
                sb.append(SMALL[ch - '0']);
            }
        }
        return sb.toString();
    }

    /** A year as people say it: 1999 -> "nineteen ninety-nine", 2005 -> "two thousand five", 1900 -> "nineteen hundred". */
    public static String year(int y) {
        if (y < 1000 || y > 9999 || (y >= 2000 && y < 2010)) {
            return cardinal(y);
        }
        int hi = y / 100;
        int lo = y % 100;
        if (lo == 0) {
            return cardinal(hi) + " hundred";
        }
        return cardinal(hi) + " " + (lo < 10 ? "oh " + cardinal(lo) : cardinal(lo));
    }

    /** A clock time: (7, 5) -> "seven oh five", (9, 0) -> "nine o'clock", (14, 30) -> "fourteen thirty". */
    public static String time(int hour, int minute) {
        if (minute == 0) {
            return cardinal(hour) + " o'clock";
        }
        return cardinal(hour) + " " + (minute < 10 ? "oh " + cardinal(minute) : cardinal(minute));
    }
}
