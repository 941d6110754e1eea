package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Full duplex, a lone "stop" said 0.6 s into the reply in `bench duplex`'s meeting room (echo 6 dB louder than the
 * user, babble at the sweep's SNR 20; {@link DuplexCase} on {@link OfflineDuplexRoom}: the real front end, Silero VAD
 * and Vosk). The word is over before the held reply has gone quiet in the room, so nothing of it is heard after the
 * echo cleared, and one certain word was not enough: the reply resumed (the offline sweep caught 3 of 20 "stop"s so).
 * The frames that held the reply were the user's voice, as loud as their question and far above the room: that is
 * enough to take the word. And the hold comes within 300 ms of the onset.
 */
class ShortBargeInTest {
    @Test
    void aLoneStopOverTheReplyStopsIt() throws Exception {
        BenchRooms.Paths paths = BenchRooms.room("meeting-room");
        Path wav = SharedFixtures.require("vosk/wav");
        DuplexCase c = new DuplexCase(paths.echo(), paths.user(), BenchRooms.babble(30), 20,
                DuplexCase.load(wav.resolve("espeak-ng/10-goodbye.wav")),
                DuplexCase.load(wav.resolve("espeak-ng/04-stop.wav")), 583, 20);
        OfflineDuplexRoom room = c.run();
        String what = "the reply started at " + room.replyStartedMillis() + " ms, the barge-in's onset at "
                + c.bargeOnsetMillis(room) + " ms: " + BenchRooms.events(room);
        assertTrue(room.errors().isEmpty(), room.errors().toString());
        assertTrue(room.replyStartedMillis() > 0, "the question made no turn: " + what);
        int stop = -1;
        int hold = -1;
        for (OfflineDuplexRoom.Event e : room.events()) {
            if (e.what().equals("stop") && stop < 0) {
                stop = e.atMillis();
            }
            if (e.what().equals("hold") && hold < 0 && e.atMillis() > c.bargeOnsetMillis(room)) {
                hold = e.atMillis();
            }
        }
        // held once Silero's probability stayed at 0.5 for three windows, not at its start (five): 326 ms before
        assertTrue(hold > 0 && hold - c.bargeOnsetMillis(room) <= 300,
                "the reply was not held within 300 ms of the barge-in's onset: " + what);
        assertTrue(stop > c.bargeOnsetMillis(room), "the reply was not stopped after the barge-in began: " + what);
        assertTrue(room.turns().size() >= 2, "the barge-in made no turn: " + what);
        assertEquals("stop", room.turns().get(1), what);
    }
}
