package dev.parley.app.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.audio.Speculation;
import dev.parley.audio.frontend.FrameCost;
import dev.parley.audio.room.ScheduledSpeech;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a duplex run's events become counts (times in ms from an arbitrary origin). */
class DuplexAnalysisTest {
    private static final long MS = 1_000_000L;

    /** A recording from {@code startMs} to {@code endMs} whose voice ends 100 ms before the recording does. */
    private static DuplexAnalysis.Utterance said(String text, long startMs, long onsetMs, long endMs, boolean bargeIn) {
        return new DuplexAnalysis.Utterance(new ScheduledSpeech(text, startMs * MS, onsetMs * MS, (endMs - 100) * MS, endMs * MS), text, bargeIn);
    }

    @Test
    void stopsAndTurnsAreAttributedToTheUserTheEchoOrTheNoise() {
        DuplexEvents ev = new DuplexEvents();
        var question = said("what time is it", 1000, 1100, 2000, false);
        var bargeIn = said("Stop.", 9000, 9200, 9800, true);
        var missed = said("tell me a joke", 30_000, 30_100, 31_000, true);
        ev.turnAt(2700 * MS, 1, "what time is it");      // the question's turn
        ev.replyAt(3000 * MS, 1);
        ev.stopAt(3400 * MS, 1);                          // the reply's own echo stopped it
        ev.turnAt(4500 * MS, 2, "one");                   // ... and became a turn while Parley was audible
        ev.replyAt(5000 * MS, 2);
        ev.stopAt(9450 * MS, 2);                          // caught 250 ms after the barge-in's onset
        ev.turnAt(10_500 * MS, 3, "stop");                // its transcript, normalised, is exact
        ev.turnAt(19_000 * MS, 6, "[unk]");               // noise without words: no reply, not a turn
        ev.turnAt(19_500 * MS, 7, "");
        ev.turnAt(20_000 * MS, 4, "nine");                // nobody speaks, Parley silent: noise
        ev.stopAt(20_300 * MS, 4);                        // ... whose reply is cut before any audio
        ev.turnAt(31_900 * MS, 5, "tell me a [unk]");     // the second barge-in: not caught, wrong words
        long audibleFrom = 3000 * MS;
        long audibleTo = 9450 * MS;
        FrameCost frontEnd = new FrameCost();
        frontEnd.add(3_000_000, 10);
        DuplexTally t = DuplexAnalysis.tally(ev, List.of(question, bargeIn, missed), 3, 0, 0, 1, 600,
                (a, b) -> a < audibleTo && b > audibleFrom, frontEnd, new Speculation(3, 2));
        assertEquals(2, t.replies());
        assertEquals(1, t.selfInterruptions());
        assertEquals(1, t.cutUnheard());
        assertEquals(1, t.selfTurns());
        assertEquals(2, t.bargeIns());
        assertEquals(1, t.detected());
        assertEquals(250.0, t.medianMs(), 1e-9);
        assertEquals(1, t.exact());
        assertEquals(1, t.noiseFalseTurns());
        // only the question's turn is timed, from where its voice ended (1900 ms), not the recording (2000 ms): not the
        // self-turn, the noise's, nor the barge-in's (heard over the reply)
        assertEquals(List.of(800.0), t.endOfTurnMs());
        assertEquals(List.of(1100.0), t.firstAudioMs());
        assertEquals(10, t.frontEnd().frames());
        assertEquals(305.0, t.frontEnd().percentileMicros(0.5), 1e-9);
        assertEquals(List.of("self_interruptions=1 replies=2", "self_turns=1",
                "barge_in detected=1 of=2 median_ms=250 p90_ms=250", "barge_in_transcript exact=1 of=2",
                "noise_false_turns=1 noise_trials=1"), t.finalLines());
    }

    @Test
    void inFullDuplexABargeInSilencesTheReplyWhenItIsHeldNotWhenTheStopConfirmsIt() {
        DuplexEvents ev = new DuplexEvents();
        var question = said("what time is it", 1000, 1100, 2000, false);
        var bargeIn = said("stop", 6000, 6100, 6600, true);
        ev.turnAt(2700 * MS, 1, "what time is it");
        ev.replyAt(3000 * MS, 1);
        ev.holdAt(4000 * MS, 1, true);                    // its own echo held it: a false interruption ...
        ev.holdAt(4500 * MS, 1, false);                   // ... and it resumed: no self-interruption
        ev.holdAt(6280 * MS, 1, true);                    // the barge-in holds it 180 ms after its onset
        ev.stopAt(7300 * MS, 1);                          // and the final transcript's words confirm the stop
        ev.turnAt(7300 * MS, 2, "stop");
        DuplexTally t = DuplexAnalysis.tally(ev, List.of(question, bargeIn), 1, 0, 0, 0, 600, (a, b) -> true, new FrameCost(), new Speculation(0, 0));
        assertEquals(0, t.selfInterruptions());
        assertEquals(1, t.detected());
        assertEquals(180.0, t.medianMs(), 1e-9, "latency to the hold that the stop confirmed");
        assertEquals(1, t.exact());
    }

    @Test
    void tallyPercentilesAreNearestRank() {
        DuplexTally t = new DuplexTally(10, 10, 0, 0, 0, 0, 10, 0, List.of(100.0, 400.0, 200.0, 300.0, 500.0, 600.0, 700.0,
                800.0, 900.0, 1000.0), 0, 0, 0, List.of(650.0, 700.0), List.of(900.0), new FrameCost(),
                new Speculation(2, 1));
        assertEquals(500.0, t.medianMs());
        assertEquals(900.0, t.p90Ms());
        assertEquals(t.latenciesMs().size() * 2, t.plus(t).detected());
        assertEquals(List.of(650.0, 700.0, 650.0, 700.0), t.plus(t).endOfTurnMs());
        assertEquals(650.0, DuplexTally.percentile(t.endOfTurnMs(), 0.5));
        assertEquals(new Speculation(4, 2), t.plus(t).speculation());
    }
}
