package dev.parley.audio.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SentenceSplitterTest {
    /** Feeds the text in word-sized pieces (as tokens arrive) and collects everything. */
    private static List<String> split(String text) {
        SentenceSplitter s = new SentenceSplitter();
        List<String> out = new ArrayList<>();
        for (String piece : text.split("(?<= )")) {
            out.addAll(s.feed(piece));
        }
        out.addAll(s.flush());
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", textBlock = """
        Hello there. How are you? => Hello there.|How are you?
        Wow! Really? Yes. => Wow!|Really?|Yes.
        Dr. Smith is here. He is early. => Dr. Smith is here.|He is early.
        Use a tool, e.g. a hammer. Then rest. => Use a tool, e.g. a hammer.|Then rest.
        I moved to the U.S. in May. It was fun. => I moved to the U.S. in May.|It was fun.
        Pi is 3.14 roughly. Next. => Pi is 3.14 roughly.|Next.
        Well... let me think. OK. => Well... let me think.|OK.
        Hmm... Maybe later. => Hmm...|Maybe later.
        He said "stop." Then he left. => He said "stop."|Then he left.
        (This is an aside.) And more. => (This is an aside.)|And more.
        J. R. R. Tolkien wrote it. Yes. => J. R. R. Tolkien wrote it.|Yes.
        It costs $3.50 at 7 p.m. today. Fine. => It costs $3.50 at 7 p.m. today.|Fine.
        Really?! Wow. => Really?!|Wow.
        """)
    void splitsSentences(String text, String expected) {
        assertEquals(List.of(expected.split("\\|")), split(text));
    }

    @Test
    void textWithoutPunctuationIsCutAtASpaceOnceItIsLong() {
        SentenceSplitter s = new SentenceSplitter(20);
        List<String> out = new ArrayList<>();
        String words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen ";
        for (String piece : words.split("(?<= )")) {
            out.addAll(s.feed(piece));
        }
        assertFalse(out.isEmpty(), "a long run without punctuation was sent on before the end");
        for (String piece : out) {
            assertTrue(piece.length() <= 80 && piece.length() >= 20, piece);
            assertFalse(piece.matches(".*\\S$") && !words.contains(piece + " "), "cut between words: " + piece);
        }
        out.addAll(s.flush());
        assertEquals(words.strip(), String.join(" ", out), "nothing lost or doubled");
    }

    @Test
    void emitsASentenceAsSoonAsTheNextWordShowsItIsComplete() {
        SentenceSplitter s = new SentenceSplitter();
        assertEquals(List.of(), s.feed("The answer"));
        assertEquals(List.of(), s.feed(" is four."));     // could still be "four.5" or "e.g. x"
        assertEquals(List.of(), s.feed(" "));
        assertEquals(List.of("The answer is four."), s.feed("Anything"));
        assertEquals(List.of(), s.feed(" else?"));
        assertEquals(List.of("Anything else?"), s.feed(" "));
        assertEquals(List.of(), s.flush());
    }

    @Test
    void questionAndExclamationNeedOnlyTheFollowingSpace() {
        SentenceSplitter s = new SentenceSplitter();
        assertEquals(List.of(), s.feed("Ready?"));
        assertEquals(List.of("Ready?"), s.feed(" "));
    }

    @Test
    void decimalSplitAcrossTokensStaysTogether() {
        SentenceSplitter s = new SentenceSplitter();
        List<String> out = new ArrayList<>();
        for (String p : new String[] {"It is 3", ".", "14", " today", ".", " Ok", "."}) {
            out.addAll(s.feed(p));
        }
        out.addAll(s.flush());
        assertEquals(List.of("It is 3.14 today.", "Ok."), out);
    }

    @Test
    void longSentenceIsCutAtAClauseOnceLongEnough() {
        String text = "When you have finished preparing all of the vegetables for the soup, put them in the pot, "
                + "then simmer. Short, sweet.";
        SentenceSplitter s = new SentenceSplitter(SentenceSplitter.DEFAULT_CLAUSE_MIN_CHARS);   // the first piece too
        List<String> out = new ArrayList<>(s.feed(text));
        out.addAll(s.flush());
        assertEquals(List.of("When you have finished preparing all of the vegetables for the soup,",
                "put them in the pot, then simmer.", "Short, sweet."), out);
        assertTrue(out.get(0).length() > SentenceSplitter.DEFAULT_CLAUSE_MIN_CHARS);
    }

    @Test
    void lineBreaksEndListItemsAndBlankPiecesVanish() {
        assertEquals(List.of("- first item", "- second item", "Done."), split("- first item\n- second item\n\nDone."));
        assertEquals(List.of(), split("  ...  "));
    }

    @Test
    void numberWithCommasIsNotAClause() {
        SentenceSplitter s = new SentenceSplitter(10);
        List<String> out = new ArrayList<>(s.feed("There are 1,000,000 people here"));
        out.addAll(s.flush());
        assertEquals(List.of("There are 1,000,000 people here"), out);
    }

    @Test
    void resetDropsPendingText() {
        SentenceSplitter s = new SentenceSplitter();
        s.feed("half a sent");
        s.reset();
        assertEquals(List.of(), s.flush());
    }

    @Test
    void theFirstPieceIsShortAndLaterOnesFollowTheLongerRule() {
        SentenceSplitter s = new SentenceSplitter(20, 60);
        List<String> out = new ArrayList<>();
        // A first clause ends at a comma after 20 characters; later ones only after 60.
        for (String token : "Well, the short answer is yes, but there is more to say, and it takes a while to say it all, so listen. "
                .split("(?<= )")) {
            out.addAll(s.feed(token));
        }
        out.addAll(s.flush());
        assertEquals(List.of("Well, the short answer is yes,",
                "but there is more to say, and it takes a while to say it all,", "so listen."), out);

        // Without any punctuation the first piece is cut at a space before 2 x 20 characters, later ones before 4 x 60.
        SentenceSplitter rambling = new SentenceSplitter(20, 60);
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            pieces.addAll(rambling.feed("word" + i + " "));
        }
        assertTrue(pieces.size() >= 2, "pieces: " + pieces);
        assertTrue(pieces.get(0).length() >= 20 && pieces.get(0).length() < 40, pieces.get(0));
        assertTrue(pieces.get(1).length() > 60 && pieces.get(1).length() < 240, pieces.get(1));

        rambling.reset();
        List<String> again = rambling.feed("a fresh reply starts again with a short first piece ");
        assertEquals(1, again.size(), "after a reset the next piece is a first piece: " + again);
    }
}
