package dev.parley.audio.asr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Which words of a final Vosk result are taken (the JSON as libvosk 0.3.45 writes it with setWords(true)). */
class CredibleTextTest {
    private static String result(String text, double conf, String... words) {
        StringBuilder sb = new StringBuilder("{ \"result\" : [");
        for (int i = 0; i < words.length; i++) {
            sb.append(i == 0 ? "" : ", ").append("{ \"conf\" : ").append(conf).append(", \"end\" : 1.0, \"start\" : 0.5, \"word\" : \"")
                    .append(words[i]).append("\" }");
        }
        return sb.append("], \"text\" : \"").append(text).append("\" }").toString();
    }

    /** The sure words of a result; its text must always be Vosk's whole text. */
    private static String sure(String json) throws IOException {
        Transcript.Final f = VoskRecognizer.finalResult(json);
        assertEquals(VoskRecognizer.field(json, "text"), f.text(), "the text is Vosk's, whole");
        return f.sure();
    }

    @Test
    void aSentenceVoskIsSureOfIsKeptWhole() throws IOException {
        assertEquals("what time is it", sure(result("what time is it", 1.0, "what", "time", "is", "it")));
        assertEquals("what time is it", sure(result("what time is it", 0.85, "what", "time", "is", "it")));
    }

    @Test
    void aLoneWordItDoubtsIsDropped() throws IOException {
        assertEquals("", sure(result("one", 0.83, "one")));
        assertEquals("", sure(result("nine", 0.36, "nine")));
        assertEquals("stop", sure(result("stop", 0.95, "stop")));
    }

    @Test
    void doubtedWordsLeaveTheOthers() throws IOException {
        String json = "{ \"result\" : [{ \"conf\" : 0.46, \"word\" : \"how\" }, { \"conf\" : 0.68, \"word\" : \"are\" },"
                + " { \"conf\" : 0.68, \"word\" : \"you\" }], \"text\" : \"how are you\" }";
        assertEquals("are you", sure(json));
    }

    @Test
    void theCertainWordsAreThoseOfNextToNoDoubt() throws IOException {
        String json = "{ \"result\" : [{ \"conf\" : 0.51, \"word\" : \"who\" }, { \"conf\" : 0.68, \"word\" : \"are\" },"
                + " { \"conf\" : 0.95, \"word\" : \"you\" }], \"text\" : \"who are you\" }";
        Transcript.Final f = VoskRecognizer.finalResult(json);
        assertEquals("who are you", f.sure());
        assertEquals("you", f.certain());
        assertEquals("hello", new Transcript.Final("hello").certain(), "without confidences every word is certain");
        assertEquals("set a timer", new Transcript.Final("set a timer", "set a timer").certain());
    }

    @Test
    void resultsWithoutWordDetailsAndEmptyOnesPassAsTheyAre() throws IOException {
        assertEquals("", sure("{ \"text\" : \"\" }"));
        assertEquals("hello", sure("{ \"text\" : \"hello\" }"));
    }

    @Test
    void aFinalWithoutConfidencesIsAllSure() {
        assertEquals("tell me a joke", new Transcript.Final(" tell me a joke ").sure());
        assertEquals("", new Transcript.Final("one", "").sure());
        assertEquals("one", new Transcript.Final("one", "").text());
    }

    @Test
    void aMalformedWordIsAClearError() {
        IOException e = assertThrows(IOException.class,
                () -> VoskRecognizer.finalResult("{ \"result\" : [{ \"word\" : \"x\" }], \"text\" : \"x\" }"));
        assertEquals(true, e.getMessage().contains("\"conf\""), e.getMessage());
    }
}
