package dev.parley.app.gui.chat;

import java.util.ArrayList;
import java.util.List;

/** Splits a line into runs of plain, {@code **bold**}, {@code *italic*} and {@code `code`} text. */
public final class InlineMarkdown {
    /** How a run is drawn. */
    public enum Style { PLAIN, BOLD, ITALIC, CODE }

    /** A piece of text in one style. */
    public record Run(Style style, String text) {
    }

    private InlineMarkdown() {
    }

    public static List<Run> runs(String text) {
        List<Run> out = new ArrayList<>();
        StringBuilder plain = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            String marker = text.startsWith("**", i) ? "**" : text.charAt(i) == '`' ? "`"
                    : text.charAt(i) == '*' ? "*" : null;
            int close = marker == null ? -1 : text.indexOf(marker, i + marker.length());
            if (marker != null && close > i + marker.length()) {
                if (!plain.isEmpty()) {
                    out.add(new Run(Style.PLAIN, plain.toString()));
                    plain.setLength(0);
                }
                Style style = switch (marker) {
                    case "**" -> Style.BOLD;
                    case "`" -> Style.CODE;
                    default -> Style.ITALIC;
                };
                out.add(new Run(style, text.substring(i + marker.length(), close)));
                i = close + marker.length();
            } else {
                plain.append(text.charAt(i));
                i++;
            }
        }
        if (!plain.isEmpty()) {
            out.add(new Run(Style.PLAIN, plain.toString()));
        }
        return out;
    }
}
