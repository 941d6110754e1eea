package dev.parley.app.gui.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.audio.TurnLatency;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Voice turns meet the chat turns that answered them, whichever half arrives first. */
class VoiceTurnLinkTest {

    private static TurnLatency stages(long turn) {
        return new TurnLatency(turn, 100, 200, 300, 400, 500, 900, false);
    }

    @Test
    void pairsInEitherOrderAndForgetsOldHalves() {
        List<String> measured = new ArrayList<>();
        VoiceTurnLink link = new VoiceTurnLink((chat, l) -> measured.add(chat + "<-" + l.turn()));
        link.answered(1, 41);               // reply done, audio still playing
        link.finished(1, stages(1));
        link.finished(2, stages(2));        // barge-in: the voice turn ends before the reply text
        link.answered(2, 42);
        link.finished(3, stages(3));        // a turn nobody answered (no text came)
        assertEquals(List.of("41<-1", "42<-2"), measured);
        assertEquals(1, link.waiting());
        link.finished(3 + VoiceTurnLink.KEPT + 1, stages(20));
        assertEquals(1, link.waiting(), "turn 3's half was forgotten");
        link.answered(7, 47);
        link.answered(3, 43);
        assertEquals(List.of("41<-1", "42<-2"), measured, "a forgotten half is not paired later");
    }
}
