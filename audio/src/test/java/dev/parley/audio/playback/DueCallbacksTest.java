package dev.parley.audio.playback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DueCallbacks}: what is due runs in order, what is not waits, a stop takes the rest. */
class DueCallbacksTest {
    @Test
    void dueCallbacksRunInOrderTheRestWaitAndADrainTakesThem() {
        DueCallbacks due = new DueCallbacks();
        List<String> ran = new ArrayList<>();
        long now = System.nanoTime();
        long hour = 3_600_000_000_000L;
        due.add(() -> ran.add("a"), now - 2);
        due.add(() -> ran.add("b"), now - 1);
        due.add(() -> ran.add("later"), now + hour);
        assertEquals(0, due.untilDue(1_000), "something is due now");
        due.runDue();
        assertEquals(List.of("a", "b"), ran);
        long wait = due.untilDue(Long.MAX_VALUE);
        assertTrue(wait > hour - 60_000_000_000L && wait <= hour, "the next one is an hour away: " + wait);
        assertEquals(1_000, due.untilDue(1_000), "at most the most asked for");
        List<Runnable> rest = due.drain();
        assertEquals(1, rest.size());
        rest.getFirst().run();
        assertEquals(List.of("a", "b", "later"), ran);
        assertEquals(5, due.untilDue(5), "nothing left");
    }
}
