package dev.parley.models.download;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed {@code Content-Range} header ({@code bytes START-END/TOTAL}, or {@code bytes * /TOTAL} on a 416);
 * {@code total} is -1 when the server writes {@code *}.
 */
record ContentRange(long start, long end, long total) {
    private static final Pattern RANGE = Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)");
    private static final Pattern UNSATISFIED = Pattern.compile("bytes\\s+\\*/(\\d+)");

    /** Parses a header value; returns null when it is absent or malformed. */
    static ContentRange parse(String header) {
        if (header == null) {
            return null;
        }
        Matcher m = RANGE.matcher(header.trim());
        if (m.matches()) {
            long total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
            return new ContentRange(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), total);
        }
        Matcher u = UNSATISFIED.matcher(header.trim());
        if (u.matches()) {
            return new ContentRange(-1, -1, Long.parseLong(u.group(1)));
        }
        return null;
    }
}
