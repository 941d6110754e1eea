package dev.parley.app.gui.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pieces offered before the UI runs its drain arrive together, in order, in one update. */
class TextCoalescerTest {

    @Test
    void piecesBetweenDrainsBecomeOneUpdate() {
        List<Runnable> scheduled = new ArrayList<>();
        List<String> delivered = new ArrayList<>();
        TextCoalescer c = new TextCoalescer(scheduled::add, delivered::add);
        c.offer("Hel");
        c.offer("lo");
        c.offer("");
        c.offer(" world");
        assertEquals(1, scheduled.size(), "one UI task for three pieces");
        scheduled.removeFirst().run();
        assertEquals(List.of("Hello world"), delivered);
        c.offer("!");
        assertEquals(1, scheduled.size(), "a new piece after the drain schedules again");
        c.drain();
        scheduled.removeFirst().run();
        assertEquals(List.of("Hello world", "!"), delivered, "an early drain leaves nothing for the late task");
        assertEquals(2, c.drains());
    }

    @Test
    void chatTitlesAreTheFirstWordsOfTheMessage() {
        assertEquals("Hello there", ChatViewModel.title("  Hello\n  there "));
        String t = ChatViewModel.title("a".repeat(30) + " " + "b".repeat(30));
        assertEquals(40, t.length());
        assertEquals('…', t.charAt(t.length() - 1));
    }
}
