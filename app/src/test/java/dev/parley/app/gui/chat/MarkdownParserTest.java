package dev.parley.app.gui.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.app.gui.chat.InlineMarkdown.Run;
import dev.parley.app.gui.chat.InlineMarkdown.Style;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Markdown subset of replies: blocks and inline runs. */
class MarkdownParserTest {
    private final MarkdownParser parser = new MarkdownParser();

    @Test
    void paragraphsListsHeadingsAndCode() {
        String text = """
                # Title
                First line
                continues here.

                - one
                  - nested
                2. two

                ```java
                int x = 1;

                x++;
                ```
                After.""";
        assertEquals(List.of(
                new MarkdownBlock.Heading(1, "Title"),
                new MarkdownBlock.Paragraph("First line continues here."),
                new MarkdownBlock.ListItem(0, 0, "one"),
                new MarkdownBlock.ListItem(0, 1, "nested"),
                new MarkdownBlock.ListItem(2, 0, "two"),
                new MarkdownBlock.Code("java", "int x = 1;\n\nx++;"),
                new MarkdownBlock.Paragraph("After.")), parser.parse(text));
    }

    @Test
    void anUnclosedFenceWhileStreamingRunsToTheEnd() {
        assertEquals(List.of(new MarkdownBlock.Paragraph("Code:"), new MarkdownBlock.Code("", "a\nb")),
                parser.parse("Code:\n```\na\nb"));
        assertEquals(List.of(), parser.parse(""));
    }

    @Test
    void inlineRuns() {
        assertEquals(List.of(new Run(Style.PLAIN, "Use "), new Run(Style.CODE, "sort"), new Run(Style.PLAIN, " "),
                new Run(Style.BOLD, "now"), new Run(Style.PLAIN, " or "), new Run(Style.ITALIC, "later")),
                InlineMarkdown.runs("Use `sort` **now** or *later*"));
        assertEquals(List.of(new Run(Style.PLAIN, "2 * 3 = 6 and a lone ` tick")),
                InlineMarkdown.runs("2 * 3 = 6 and a lone ` tick"));
    }
}
