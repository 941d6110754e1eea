package dev.parley.app.gui.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits the Markdown basics of a reply into blocks: paragraphs, headings, bullet and numbered list
 * items, and fenced code blocks. An unclosed fence (a reply still streaming) runs to the end.
 * Inline styles are left to {@link InlineMarkdown}.
 */
public final class MarkdownParser {
    private static final Pattern BULLET = Pattern.compile("^(\\s*)[-*+]\\s+(.*)$");
    private static final Pattern NUMBERED = Pattern.compile("^(\\s*)(\\d{1,9})[.)]\\s+(.*)$");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*)$");

    public List<MarkdownBlock> parse(String text) {
        List<MarkdownBlock> blocks = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        StringBuilder code = null;
        String language = "";
        for (String line : text.replace("\r\n", "\n").split("\n", -1)) {
            String trimmed = line.strip();
            if (code != null) {
                if (trimmed.startsWith("```")) {
                    blocks.add(new MarkdownBlock.Code(language, stripLastNewline(code)));
                    code = null;
                } else {
                    code.append(line).append('\n');
                }
                continue;
            }
            if (trimmed.startsWith("```")) {
                flush(paragraph, blocks);
                code = new StringBuilder();
                language = trimmed.substring(3).strip();
                continue;
            }
            Matcher m;
            if (trimmed.isEmpty()) {
                flush(paragraph, blocks);
            } else if ((m = HEADING.matcher(trimmed)).matches()) {
                flush(paragraph, blocks);
                blocks.add(new MarkdownBlock.Heading(m.group(1).length(), m.group(2).strip()));
            } else if ((m = BULLET.matcher(line)).matches()) {
                flush(paragraph, blocks);
                blocks.add(new MarkdownBlock.ListItem(0, indent(m.group(1)), m.group(2).strip()));
            } else if ((m = NUMBERED.matcher(line)).matches()) {
                flush(paragraph, blocks);
                blocks.add(new MarkdownBlock.ListItem(Integer.parseInt(m.group(2)), indent(m.group(1)),
                        m.group(3).strip()));
            } else {
                if (!paragraph.isEmpty()) {
                    paragraph.append(' ');
                }
                paragraph.append(trimmed);
            }
        }
        if (code != null) {
            blocks.add(new MarkdownBlock.Code(language, stripLastNewline(code)));
        }
        flush(paragraph, blocks);
        return blocks;
    }

    private static int indent(String spaces) {
        return spaces.replace("\t", "    ").length() / 2;
    }

    private static String stripLastNewline(StringBuilder sb) {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\n' ? sb.substring(0, n - 1) : sb.toString();
    }

    private static void flush(StringBuilder paragraph, List<MarkdownBlock> blocks) {
        if (!paragraph.isEmpty()) {
            blocks.add(new MarkdownBlock.Paragraph(paragraph.toString()));
            paragraph.setLength(0);
        }
    }
}
