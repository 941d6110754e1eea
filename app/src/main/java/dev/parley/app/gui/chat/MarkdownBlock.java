package dev.parley.app.gui.chat;

/** One block of the Markdown subset Parley renders. */
public sealed interface MarkdownBlock {
    /** Running text; single line breaks inside are kept as spaces. */
    record Paragraph(String text) implements MarkdownBlock {
    }

    /** {@code #}..{@code ###} headings. */
    record Heading(int level, String text) implements MarkdownBlock {
    }

    /** A list item; {@code number} is 0 for a bullet. */
    record ListItem(int number, int indent, String text) implements MarkdownBlock {
    }

    /** A fenced code block (closed or still streaming). */
    record Code(String language, String code) implements MarkdownBlock {
    }
}
