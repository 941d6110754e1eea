package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** What, heard over a reply, counts as the user's words ({@link ListenLoop#userSpoke}). */
class OverReplyWordsTest {
    private static final Set<String> ECHO = Set.of("how", "are", "you", "thank", "hello");

    @Test
    void parleysOwnWordsAndUnknownsAreNotTheUsers() {
        assertEquals("", ListenLoop.userWords("thank you [unk]", ECHO));
        assertEquals("open the settings", ListenLoop.userWords("Open the settings", ECHO));
    }

    /** A cough over the echo of "how are you" came out as "who are you" at 0.51, 0.68 and 0.87. */
    @Test
    void oneDoubtedWordBesideTheEchosIsNotTheUser() {
        assertFalse(ListenLoop.userSpoke("who are you", "", ECHO));
        assertFalse(ListenLoop.userSpoke("thank you", "thank you", ECHO));
        assertFalse(ListenLoop.userSpoke("", "", ECHO));
    }

    @Test
    void twoWordsOfTheUsersOrOneCertainAre() {
        assertTrue(ListenLoop.userSpoke("who are you", "who", ECHO));
        assertTrue(ListenLoop.userSpoke("open the settings", "", ECHO));
        assertTrue(ListenLoop.userSpoke("stop", "stop", ECHO));
    }
}
