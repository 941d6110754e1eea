package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StopStringMatcherTest {

    /** Feeds the pieces and returns what was released after each one. */
    private static List<String> drive(StopStringMatcher m, String... pieces) {
        List<String> out = new ArrayList<>();
        for (String p : pieces) {
            out.add(m.push(p));
            if (m.stopped()) {
                break;
            }
        }
        return out;
    }

    @Test
    void aStopStringSpanningTokensIsHeldBackAndNeverEmitted() {
        StopStringMatcher m = new StopStringMatcher(List.of("<|im_end|>"));
        List<String> out = drive(m, "Hello", " world", "<|", "im", "_end", "|>", "ignored");
        assertEquals(List.of("Hello", " world", "", "", "", ""), out);
        assertTrue(m.stopped());
        assertEquals("<|im_end|>", m.matchedStopString());
        assertEquals("", m.flush());
    }

    @Test
    void textBeforeTheStopStringInTheSamePieceIsReleased() {
        StopStringMatcher m = new StopStringMatcher(List.of("\nUser:"));
        assertEquals(List.of("Sure", "!"), drive(m, "Sure", "!\nUser: hi"));
        assertTrue(m.stopped());
    }

    @Test
    void aFalseStartIsReleasedOnceItCanNoLongerMatch() {
        StopStringMatcher m = new StopStringMatcher(List.of("</s>"));
        assertEquals("a", m.push("a<"));
        assertEquals("", m.push("/"));
        assertEquals("</x", m.push("x"));
        assertFalse(m.stopped());
        assertEquals("b", m.push("b<"));
        assertEquals("<", m.flush());
        assertNull(m.matchedStopString());
    }

    @Test
    void overlappingCandidatesKeepTheLongestPossiblePrefix() {
        // "abab" could be the start of "ababc" twice over; after "ababab" only the last "abab" is held
        StopStringMatcher m = new StopStringMatcher(List.of("ababc"));
        assertEquals("", m.push("abab"));
        assertEquals("ab", m.push("ab"));
        assertEquals("", m.push("c"));
        assertTrue(m.stopped());
        assertEquals("", m.flush());
    }

    @Test
    void theEarliestOfSeveralStopStringsWins() {
        StopStringMatcher m = new StopStringMatcher(List.of("STOP", "END"));
        assertEquals("one ", m.push("one ENDtwo STOP"));
        assertEquals("END", m.matchedStopString());
    }

    @Test
    void noStopStringsReleasesEverythingAtOnce() {
        StopStringMatcher m = new StopStringMatcher(List.of());
        assertEquals("héllo ✓", m.push("héllo ✓"));
        assertEquals("", m.flush());
    }

    @Test
    void badUseIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new StopStringMatcher(List.of("")));
        StopStringMatcher m = new StopStringMatcher(List.of("x"));
        m.push("x");
        assertThrows(IllegalStateException.class, () -> m.push("y"));
    }
}
