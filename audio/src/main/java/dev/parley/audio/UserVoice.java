package dev.parley.audio;

import java.util.ArrayList;
import java.util.List;

/**
 * How loud the user's own voice is at the microphone, and whether speech heard over a held reply is as loud: the
 * median short-term level of the voiced frames of their last turns begun while Parley was silent, against the same
 * median over what the held reply let through. The person at the laptop speaks at about one level; a bed of voices
 * across the room does not reach it. Measured in {@code FullDuplexPipelineTest} (a bed of eight voices 10 dB below
 * the user by RMS, Silero VAD): over the held reply the bed's median sat 9-11 dB below the user's, a barge-in within
 * 1-2 dB of it, and the fixture recognizer heard "what is your name" for sure in the bed, which stopped the reply.
 * The same level judges a turn begun while Parley was silent ({@link #pendingIsTheUser}): in `bench duplex` the turns
 * a bed of voices made came out 9-13.5 dB below the user's.
 *
 * <p>Frames of the utterance being heard count only once it is taken as the user's turn ({@link #accepted}); one
 * dropped (echo, a cough) leaves the level as it was. Not thread-safe: the listen loop's thread uses it.
 */
final class UserVoice {
    /** The user's level is the median of about this much of their voiced speech, the latest. */
    static final int WINDOW_MILLIS = 10_000;
    /**
     * Before this much voiced speech of the user's is known the level judges nothing. A one-word first question
     * ("goodbye") stands out of a bed of voices for 420-480 ms (offline sweep, SNR 10): at 500 ms it taught nothing,
     * and the bed over the reply was held as the user's for 4 s and stopped it ("what is your name").
     */
    static final double MIN_KNOWN_MILLIS = 300;
    /**
     * Before {@link #MIN_KNOWN_MILLIS} of the user's voice is known, this much of it still tells speech {@value
     * #GLIMPSE_MARGIN_DB} dB or more below it from theirs. Measured in `bench duplex` (bedroom, SNR 20): the first
     * question ("goodbye") taught 280 ms of the user at -25 dBFS, and the bed's "what time is it" at -44.5 dBFS, heard
     * over a held reply while the level judged nothing yet, stopped the reply as the user's.
     */
    static final double MIN_GLIMPSE_MILLIS = 100;
    /** See {@link #MIN_GLIMPSE_MILLIS}: twice the margin, for a level from so little of the voice. */
    static final double GLIMPSE_MARGIN_DB = 12;
    /** Speech over a held reply is the user's only once this much of it was voiced (and as loud as theirs). */
    static final double MIN_HELD_MILLIS = 60;

    private final NoiseFloor levels = new NoiseFloor(WINDOW_MILLIS);
    private final List<double[]> pending = new ArrayList<>();
    private NoiseFloor held = new NoiseFloor(Integer.MAX_VALUE);
    private final double marginDb;

    /** @param marginDb how far below the user's level speech over a reply may be and still be taken for theirs */
    UserVoice(double marginDb) {
        if (!(marginDb > 0)) {
            throw new IllegalArgumentException("expected a positive margin in dB but found " + marginDb);
        }
        this.marginDb = marginDb;
    }

    /** A voiced frame of an utterance begun while Parley was silent: its short-term level, dBFS, and length, ms. */
    void heard(double levelDbfs, double millis) {
        pending.add(new double[] {levelDbfs, millis});
    }

    /** A voiced frame heard while a reply is held for the speech over it: its short-term level and length. */
    void heardOverHeldReply(double levelDbfs, double millis) {
        held.add(levelDbfs, millis, true);
    }

    /** The utterance heard since the last call is the user's turn: its voiced frames count towards their level. */
    void accepted() {
        for (double[] f : pending) {
            levels.add(f[0], f[1], true);
        }
        dropped();
    }

    /**
     * The utterance heard since the last call is a turn, in a room whose quiet moments sit at {@code roomQuietDbfs}: it
     * counts towards the user's level as in {@link #accepted}, except while that level is not known yet and the turn's
     * voiced median stands less than {@code minAboveDb} over the room's quiet. Such a first turn may be the room's own
     * (a bed of voices the VAD let through before the user spoke): measured in `bench duplex` (living room, SNR 20), a
     * bed's turn at -46.5 dBFS over a quiet of -50 became the user's level, and a hold on the echo's rest at -45.5 was
     * then "as loud as the user" and stopped the reply. The user's own voice stands well out of a quiet room; where
     * even it does not (a loud room), their later turns teach the level once one stands out, and until then the level
     * judges nothing, as before any turn.
     */
    void acceptedOver(double roomQuietDbfs, double minAboveDb) {
        if (known() || pending.isEmpty() || pendingLevelDbfs() >= roomQuietDbfs + minAboveDb) {
            accepted();
        } else {
            dropped();
        }
    }

    /**
     * Keeps of the utterance being heard only the voiced frames within {@code withinDb} of its loudest {@code
     * loudestMillis} ms ({@link #pendingLoudestDbfs}): for a long turn that is to teach the user's level but may hold the
     * room's voices besides theirs (a question said into someone talking on), the user's are its loudest.
     */
    void keepLoudest(double loudestMillis, double withinDb) {
        double top = pendingLoudestDbfs(loudestMillis);
        pending.removeIf(f -> f[0] < top - withinDb);
    }

    /** The utterance heard since the last call was not the user's, or is over: nothing of it counts. */
    void dropped() {
        pending.clear();
        if (held.historyMillis() > 0) {
            held = new NoiseFloor(Integer.MAX_VALUE);
        }
    }

    /** Whether enough of the user's voice is known for {@link #levelDbfs} to mean anything. */
    boolean known() {
        return levels.historyMillis() >= MIN_KNOWN_MILLIS;
    }

    /** How much of the user's voiced speech the level is the median of, ms. */
    double knownMillis() {
        return levels.historyMillis();
    }

    /** How much voiced speech the utterance being heard (begun while Parley was silent) has had, ms. */
    double pendingMillis() {
        double sum = 0;
        for (double[] p : pending) {
            sum += p[1];
        }
        return sum;
    }

    /** The median short-term level of the user's voiced speech, dBFS ({@link LevelMeter#SILENCE_DBFS} before any). */
    double levelDbfs() {
        return levels.floorDbfs();
    }

    /**
     * Whether the utterance being heard (begun while Parley was silent) is the user's, as far as its level tells: its
     * voiced frames' median level is not too far below the user's ({@link #belowTheUser}), or nothing of it was
     * voiced.
     */
    boolean pendingIsTheUser() {
        return pending.isEmpty() || !belowTheUser(pendingLevelDbfs());
    }

    /**
     * Whether speech at {@code levelDbfs} is too quiet to be the user's: more than the margin below their level once
     * it is known, more than {@value #GLIMPSE_MARGIN_DB} dB below it while only a glimpse of it is ({@link
     * #MIN_GLIMPSE_MILLIS}), never before.
     */
    private boolean belowTheUser(double levelDbfs) {
        if (known()) {
            return levelDbfs < levelDbfs() - marginDb;
        }
        return levels.historyMillis() >= MIN_GLIMPSE_MILLIS && levelDbfs < levelDbfs() - GLIMPSE_MARGIN_DB;
    }

    /** The median short-term level of the voiced frames of the utterance being heard, dBFS. */
    double pendingLevelDbfs() {
        NoiseFloor f = new NoiseFloor(Integer.MAX_VALUE);
        for (double[] p : pending) {
            f.add(p[0], p[1], true);
        }
        return f.floorDbfs();
    }

    /**
     * The level that the loudest {@code millis} ms of the utterance being heard lie at or above: its voiced frames, from
     * the loudest down, until that much is counted, dBFS ({@link LevelMeter#SILENCE_DBFS} where none was voiced).
     */
    double pendingLoudestDbfs(double millis) {
        List<double[]> byLevel = new ArrayList<>(pending);
        byLevel.sort((a, b) -> Double.compare(b[0], a[0]));
        double counted = 0;
        double level = LevelMeter.SILENCE_DBFS;
        for (double[] f : byLevel) {
            level = f[0];
            counted += f[1];
            if (counted >= millis) {
                break;
            }
        }
        return level;
    }

    /** The median short-term level of the voiced speech over the held reply, dBFS. */
    double heldLevelDbfs() {
        return held.floorDbfs();
    }

    /** How much voiced speech was heard over the held reply, ms. */
    double heldMillis() {
        return held.historyMillis();
    }

    /**
     * Whether the speech over the held reply is the user's, as far as its level tells: at least {@value
     * #MIN_HELD_MILLIS} ms of it was voiced, and its median level is not too far below the user's ({@link
     * #belowTheUser}).
     */
    boolean heldIsTheUser() {
        return heldMillis() >= MIN_HELD_MILLIS && !belowTheUser(heldLevelDbfs());
    }
}
