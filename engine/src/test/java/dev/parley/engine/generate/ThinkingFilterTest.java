package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A reply's thinking block never reaches speech, however the stream cuts its tags. */
class ThinkingFilterTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "<think>\\nThe user greets me.\\n</think>\\n\\nHi there!|Hi there!",
            "<think>\\n\\n</think>\\n\\nFour.|Four.",
            "No thinking at all.|No thinking at all.",
            "A < B and x<thin y|A < B and x<thin y",
            "Before <think>hidden</think>after|Before after",
            "<think>cancelled while thinking|''",
            "Two <think>a</think>blocks <think>b</think>\\nhere.|Two blocks here."})
    void everySplitOfTheStreamSpeaksTheSameAnswer(String raw, String spoken) {
        String text = raw.replace("\\n", "\n");
        assertEquals(spoken, ThinkingFilter.strip(text));
        for (int cut = 0; cut <= text.length(); cut++) {
            for (int cut2 = cut; cut2 <= text.length(); cut2 += 3) {
                ThinkingFilter f = new ThinkingFilter();
                String out = f.accept(text.substring(0, cut)) + f.accept(text.substring(cut, cut2))
                        + f.accept(text.substring(cut2)) + f.finish();
                assertEquals(spoken, out, "pieces cut at " + cut + " and " + cut2);
            }
        }
    }

    @Test
    void theThoughtsAreWhatTheWindowFolds() {
        assertEquals("The user greets me.", ThinkingFilter.thoughts("<think>\nThe user greets me.\n</think>\n\nHi!"));
        assertEquals("", ThinkingFilter.thoughts("<think>\n\n</think>\n\nFour."), "an empty block has no thoughts");
        assertEquals("a\n\nb", ThinkingFilter.thoughts("<think>a</think>x<think> b </think>y"));
        assertEquals("still going", ThinkingFilter.thoughts("<think>still going"));
        assertEquals("", ThinkingFilter.thoughts("No thinking."));
    }

    @Test
    void oneCharacterAtATimeReleasesTheAnswerAsItComes() {
        ThinkingFilter f = new ThinkingFilter();
        StringBuilder out = new StringBuilder();
        int releasedBeforeEnd = 0;
        String text = "<think>plan</think>\n\nHello world";
        for (char c : text.toCharArray()) {
            out.append(f.accept(String.valueOf(c)));
            releasedBeforeEnd = out.length();
        }
        out.append(f.finish());
        assertEquals("Hello world", out.toString());
        assertEquals("Hello world".length(), releasedBeforeEnd, "plain text is not held back");
    }
}
