package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.room.Levels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Someone talks on in the room after the reply (a television, a radio; here the fixture's sentences said one after
 * another for 20 s, their active level 9.5 dB below the user's), in a quiet room ({@link DuplexCase} on {@link
 * OfflineDuplexRoom}: the real front end, Silero VAD and Vosk). Such a voice keeps the VAD in speech for 14-16 s, far
 * above the room's quiet, and before {@link ListenLoop#LONG_TURN_MILLIS} was answered as one long turn of its words
 * (in all five of the benchmark's rooms; `bench duplex` made a noise false turn so in a babble bed). A question the
 * user says over it, and the user's own long turn, stay turns.
 */
class LongTurnsOfTheRoomTest {
    private static final String[] SAID = {"01-what-is-the-weather-like-today", "02-tell-me-a-joke", "03-what-time-is-it",
        "07-thank-you", "05-set-a-timer-for-five-minutes", "08-open-the-settings", "09-hello"};
    /** How far below the user the room talks, dB (active levels). */
    private static final double TALKER_DB = 9.5;

    @Test
    void aVoiceTalkingOnInTheRoomMakesNoTurn() throws Exception {
        for (String name : List.of("kitchen", "living-room")) {
            Room r = new Room(name);
            short[] talker = r.level(talking("espeak-ng", 3, 20), -TALKER_DB);
            OfflineDuplexRoom room = r.run(talker, null, null);
            assertEquals(1, room.turns().size(), name + ": the question only, but the turns were " + room.turns()
                    + ": " + BenchRooms.events(room));
        }
    }

    @Test
    void aSentenceOfTheTalkerAfterItsLongTurnIsTheRoomsToo() throws Exception {
        for (String name : List.of("kitchen", "living-room")) {
            Room r = new Room(name);
            short[] talker = r.level(talking("espeak-ng", 3, 20), -TALKER_DB);
            // 2.5 s after the 20 s, the same voice says one more sentence (2.4 s): too short to be a long turn
            short[] more = r.level(DuplexCase.load(r.wav.resolve("espeak-ng/05-set-a-timer-for-five-minutes.wav")), -TALKER_DB);
            OfflineDuplexRoom room = r.run(talker, null, null, more, 2000 + 20_000 + 2500, 50);
            assertEquals(1, room.turns().size(), name + ": the question only, but the turns were " + room.turns()
                    + ": " + BenchRooms.events(room));
        }
    }

    @Test
    void aQuestionSaidOverTheTalkingIsATurn() throws Exception {
        Room r = new Room("office-small");
        short[] talker = r.level(talking("espeak-ng", 3, 20), -TALKER_DB);
        short[] question = r.level(DuplexCase.load(r.wav.resolve("espeak-ng/08-open-the-settings.wav")), 0);
        OfflineDuplexRoom room = r.run(talker, question, null);
        // (the talker alone makes no turn in this room either; what the recognizer makes of two voices at once is the
        // talker's words with the user's, or without them: a turn that is all the talker's is the point)
        String what = "the turns " + room.turns() + ": " + BenchRooms.events(room);
        assertEquals(2, room.turns().size(), "the question over the talking made no turn: " + what);
        OfflineDuplexRoom alone = r.run(talker, null, null);
        assertEquals(1, alone.turns().size(), "the talker alone: " + alone.turns());
    }

    @Test
    void aQuestionOverTheTalkingTeachesTheUsersLevelNotTheTalkers() throws Exception {
        // the room talks on for 8 s more
        assertOnlyTheQuestionsAfterTheTalkerSays(talking("espeak-ng", 1, 8));
    }

    @Test
    void aSentenceOfTheTalkerAfterTheQuestionOverItIsTheRooms() throws Exception {
        // one more sentence (2.4 s): too short to be a long turn
        assertOnlyTheQuestionsAfterTheTalkerSays(
                DuplexCase.load(SharedFixtures.require("vosk/wav").resolve("espeak-ng/05-set-a-timer-for-five-minutes.wav")));
    }

    /**
     * The question said over the talking (small office), and after its turn (with the talker's 20 s in it) and its 15 s
     * reply, the talker says {@code more}: the two questions are the only turns.
     */
    private static void assertOnlyTheQuestionsAfterTheTalkerSays(short[] more) throws Exception {
        Room r = new Room("office-small");
        short[] talker = r.level(talking("espeak-ng", 3, 20), -TALKER_DB);
        short[] question = r.level(DuplexCase.load(r.wav.resolve("espeak-ng/08-open-the-settings.wav")), 0);
        OfflineDuplexRoom room = r.run(talker, question, null, r.level(more, -TALKER_DB), 2000 + 20_000 + 18_000, 75);
        assertEquals(2, room.turns().size(), "the first question and the one over the talking, but the turns were "
                + room.turns() + ": " + BenchRooms.events(room));
    }

    @Test
    void theUsersOwnLongTurnIsATurn() throws Exception {
        Room r = new Room("kitchen");
        short[] talk = r.level(talking("marytts", 1, 30), 0);      // the user goes on for 12 s at their level
        OfflineDuplexRoom room = r.run(null, null, talk);
        String what = "the turns " + room.turns() + ": " + BenchRooms.events(room);
        assertTrue(room.turns().size() >= 2, what);
        assertTrue(room.turns().get(1).startsWith("what is the weather like today"), what);
    }

    /** The fixture's sentences of one voice back to back, {@code times} over, at most {@code seconds} long. */
    private static short[] talking(String voice, int times, int seconds) throws Exception {
        Path wav = SharedFixtures.require("vosk/wav");
        List<PcmAudio> parts = new ArrayList<>();
        for (int k = 0; k < times; k++) {
            for (String n : SAID) {
                parts.add(WavFileSource.load(wav.resolve(voice + "/" + n + ".wav"), 16_000));
            }
        }
        short[] all = PcmAudio.join(parts, 16_000).samples();
        return Arrays.copyOf(all, Math.min(all.length, seconds * 16_000));
    }

    /** One of the benchmark's rooms, a quiet one (babble at SNR 30), the user asking "goodbye" at 3 s. */
    private static final class Room {
        final Path wav = SharedFixtures.require("vosk/wav");
        final BenchRooms.Paths paths;
        final short[] question;
        final double userDb;

        Room(String name) throws Exception {
            paths = BenchRooms.room(name);
            question = DuplexCase.load(wav.resolve("espeak-ng/10-goodbye.wav"));
            userDb = DuplexCase.activeDb(DuplexCase.convolve(question, paths.user()));
        }

        /** {@code dry} through the user's path, its active level {@code db} from the user's. */
        short[] level(short[] dry, double db) {
            short[] heard = DuplexCase.convolve(dry, paths.user());
            return DuplexCase.scaled(heard, Levels.gain(DuplexCase.activeDb(heard), userDb + db));
        }

        /** The case, with the talker 2 s after the reply, the user's question 6 s after it, their long turn 2 s after. */
        OfflineDuplexRoom run(short[] talker, short[] question, short[] longTurn) throws Exception {
            return run(talker, question, longTurn, null, 0, 50);
        }

        /**
         * {@link #run(short[], short[], short[])}, and {@code later} said {@code laterMillis} after the reply, in a room
         * {@code seconds} long.
         */
        OfflineDuplexRoom run(short[] talker, short[] question, short[] longTurn, short[] later, int laterMillis,
                              int seconds) throws Exception {
            DuplexCase c = new DuplexCase(paths.echo(), paths.user(), BenchRooms.babble(seconds), 30, this.question,
                    new short[16_000], 583, seconds, true);
            return c.run((room, userRms) -> {
                if (talker != null) {
                    room.sayAfterReplyEnds(talker, 2000);
                }
                if (question != null) {
                    room.sayAfterReplyEnds(question, 6000);
                }
                if (longTurn != null) {
                    room.sayAfterReplyEnds(longTurn, 2000);
                }
                if (later != null) {
                    room.sayAfterReplyEnds(later, laterMillis);
                }
            });
        }
    }
}
