package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UserVoiceTest {
    private static final double FRAME = 20;

    /** {@code millis} of voiced frames at {@code dbfs}, taken as the user's turn. */
    private static void turn(UserVoice v, double dbfs, double millis) {
        for (double t = 0; t < millis; t += FRAME) {
            v.heard(dbfs, FRAME);
        }
        v.accepted();
    }

    private static void held(UserVoice v, double dbfs, double millis) {
        for (double t = 0; t < millis; t += FRAME) {
            v.heardOverHeldReply(dbfs, FRAME);
        }
    }

    @Test
    void speechOverTheReplyWellBelowTheUsersLevelIsNotTheirs() {
        UserVoice v = new UserVoice(6);
        turn(v, -22, 1200);
        assertTrue(v.known());
        assertEquals(-22, v.levelDbfs(), 0.5);
        held(v, -32, 1000);
        assertFalse(v.heldIsTheUser(), "a bed 10 dB below the user");
        v.dropped();
        held(v, -26, 400);
        assertTrue(v.heldIsTheUser(), "4 dB below the user is within the margin");
        v.dropped();
        held(v, -19, 400);
        assertTrue(v.heldIsTheUser(), "louder than the user (their voice over what is left of the echo)");
    }

    @Test
    void nothingHeardOverTheHeldReplyIsNotTheUserEvenWhenTheirLevelIsUnknown() {
        UserVoice v = new UserVoice(6);
        assertFalse(v.known());
        assertFalse(v.heldIsTheUser(), "no voiced speech after the reply went quiet");
        held(v, -60, 40);
        assertFalse(v.heldIsTheUser(), "40 ms is less than the minimum");
        held(v, -60, 40);
        assertTrue(v.heldIsTheUser(), "any level while the user's is not known");
    }

    @Test
    void aGlimpseOfTheUsersVoiceAlreadyTellsABedFarBelowIt() {
        UserVoice v = new UserVoice(6);
        turn(v, -25, 280);        // a one-word first question: less than the level needs to judge within the margin
        assertFalse(v.known());
        held(v, -44.5, 120);
        assertFalse(v.heldIsTheUser(), "a bed's voice 19.5 dB below the user's first 280 ms");
        v.dropped();
        held(v, -33, 120);
        assertTrue(v.heldIsTheUser(), "8 dB below: within what so little of the user's voice can tell");
        v.dropped();
        v.heard(-44.5, 400);
        assertFalse(v.pendingIsTheUser(), "a turn of the bed as far below");
        UserVoice glimpse = new UserVoice(6);
        turn(glimpse, -25, 60);
        held(glimpse, -44.5, 120);
        assertTrue(glimpse.heldIsTheUser(), "60 ms of the user's voice judges nothing");
    }

    @Test
    void aDroppedUtteranceLeavesTheLevelAsItWas() {
        UserVoice v = new UserVoice(6);
        turn(v, -22, 1000);
        for (int i = 0; i < 100; i++) {
            v.heard(-45, FRAME);      // a cough or the echo: dropped, not the user's turn
        }
        v.dropped();
        assertEquals(-22, v.levelDbfs(), 0.5);
        held(v, -24, 200);
        v.accepted();                 // frames over a held reply never teach the user's level
        assertEquals(-22, v.levelDbfs(), 0.5);
        assertEquals(0, v.heldMillis());
    }

    @Test
    void aFirstTurnAtTheRoomsFloorDoesNotBecomeTheUsersLevel() {
        UserVoice v = new UserVoice(6);
        for (double t = 0; t < 2000; t += FRAME) {
            v.heard(-46.5, FRAME);    // a bed of voices' turn, 3.5 dB over the room's quiet (-50)
        }
        v.acceptedOver(-50, 6);
        assertFalse(v.known(), "the bed's turn taught the user's level: " + v.levelDbfs());
        for (double t = 0; t < 1000; t += FRAME) {
            v.heard(-27, FRAME);      // the user's question stands 23 dB out of it
        }
        v.acceptedOver(-50, 6);
        assertTrue(v.known());
        assertEquals(-27, v.levelDbfs(), 0.5);
        for (double t = 0; t < 1000; t += FRAME) {
            v.heard(-30, FRAME);      // once the level is known, a turn within the margin counts wherever the room is
        }
        v.acceptedOver(-33, 6);
        assertEquals(-28.5, v.levelDbfs(), 1.6);
        held(v, -46, 400);
        assertFalse(v.heldIsTheUser(), "speech at the bed's level over a held reply");
    }

    @Test
    void theLevelFollowsTheLatestTurns() {
        UserVoice v = new UserVoice(6);
        turn(v, -20, 3000);
        turn(v, -32, UserVoice.WINDOW_MILLIS);      // the user stepped back: only their latest speech counts
        assertEquals(-32, v.levelDbfs(), 0.5);
        held(v, -36, 1000);
        assertTrue(v.heldIsTheUser());
    }

    @Test
    void aMarginMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UserVoice(0));
        assertEquals("expected a positive margin in dB but found 0.0", e.getMessage());
    }

    @Test
    void aTurnWellBelowTheUsersLevelIsNotTheirsOnceTheirLevelIsKnown() {
        UserVoice v = new UserVoice(6);
        for (int i = 0; i < 10; i++) {
            v.heard(-45, FRAME);
        }
        assertTrue(v.pendingIsTheUser(), "the user's level is not known yet: the first turn is theirs");
        v.accepted();
        assertFalse(v.known(), "200 ms is not enough to know it");
        turn(v, -28, 1200);
        assertTrue(v.known());
        assertTrue(v.pendingIsTheUser(), "nothing heard yet");
        for (int i = 0; i < 30; i++) {
            v.heard(-41, FRAME);
        }
        assertEquals(-41, v.pendingLevelDbfs(), 0.5);
        assertFalse(v.pendingIsTheUser(), "a bed of voices 12 dB below them");
        v.dropped();
        for (int i = 0; i < 30; i++) {
            v.heard(-33, FRAME);
        }
        assertTrue(v.pendingIsTheUser(), "within the 6 dB margin");
    }

    @Test
    void theLoudestVoiceOfAnUtteranceIsTheLevelItsLoudestMillisecondsReach() {
        UserVoice v = new UserVoice(6);
        assertEquals(LevelMeter.SILENCE_DBFS, v.pendingLoudestDbfs(500), 1e-9, "nothing heard");
        for (int i = 0; i < 200; i++) {
            v.heard(-40 - i % 5, FRAME);       // four seconds of a voice at -40..-44 dBFS
        }
        v.heard(-30, FRAME);
        v.heard(-31, FRAME);
        assertEquals(-30, v.pendingLoudestDbfs(FRAME), 1e-9);
        assertEquals(-31, v.pendingLoudestDbfs(2 * FRAME), 1e-9);
        assertEquals(-40, v.pendingLoudestDbfs(500), 1e-9, "two loud frames and 40 at -40 make the loudest 500 ms");
        assertEquals(-44, v.pendingLoudestDbfs(60_000), 1e-9, "more than was heard: its quietest voiced frame");
    }

    @Test
    void aLongTurnKeepsOnlyItsLoudestVoiceToTeachTheUsersLevel() {
        UserVoice v = new UserVoice(6);
        for (int i = 0; i < 400; i++) {
            v.heard(-47 - i % 5, FRAME);       // eight seconds of someone talking across the room, -47..-51 dBFS
        }
        for (int i = 0; i < 60; i++) {
            v.heard(-26 - i % 3, FRAME);       // and the user's question said into it, -26..-28
        }
        assertEquals(-49, v.pendingLevelDbfs(), 0.5, "the turn's median is the talker's");
        v.keepLoudest(500, 6);
        assertEquals(60 * FRAME, v.pendingMillis(), 1e-9, "only the question's frames are within 6 dB of the loudest");
        v.accepted();
        assertEquals(-27, v.levelDbfs(), 0.5, "the user's level is the question's, not the talker's");
    }
}
