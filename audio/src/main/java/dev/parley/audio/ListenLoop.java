package dev.parley.audio;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.vad.VadEvent;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The capture side of the voice loop, on its own thread: reads frames already cleaned by the audio front end
 * (a {@link dev.parley.audio.frontend.FrontEndSource}: the meter, the VAD and the recognizer hear only what the echo
 * canceller leaves), runs the
 * voice-activity detector and the recognizer, ends user turns (silence in hands-free mode, release in
 * push-to-talk) and triggers barge-in while the assistant is active.
 *
 * <p>Full duplex (the front end cancels echo and half-duplex is off): while a reply plays, speech that the VAD hears
 * and the echo canceller left mostly untouched (the user's, not the echo's rest) holds the reply
 * ({@link Host#pauseReply}) and goes to the recognizer (with its pre-roll). A final transcript with a word Parley was
 * not saying itself stops the reply for good ({@link Host#bargeIn}) and the utterance is the next turn: a final
 * segment inside the utterance, or the final result once the speech pauses for the false-interruption silence.
 * No such word resumes the reply (a cough, a knock: live partials are not trusted, since the grammar-limited
 * recognizer gave "hello" for seconds of cough noise and an empty final). An utterance begun over a reply whose words
 * are all Parley's own is dropped as echo. Words confirm only when heard once the reply is quiet in the room, and
 * only from speech about as loud as the user's own turns ({@link UserVoice}): a bed of voices across the room gives
 * the recognizer words too.
 *
 * <p>Within a turn, the frames after the VAD's end of speech are held back from the recognizer (in the pre-roll) and
 * fed only when speech starts again: fed the noise after the last word, the recognizer made words of it.
 */
final class ListenLoop implements Runnable {
    /**
     * Its decisions over a reply at DEBUG (hold, confirm, resume and why), and at TRACE every frame heard over a
     * reply or a hold (level, VAD probability, the front end's reduction, the level above the room's): off by
     * default; a JUL config with {@code dev.parley.audio.ListenLoop.level = FINER} shows them.
     */
    private static final System.Logger LOG = System.getLogger(ListenLoop.class.getName());
    /** What the loop needs from the pipeline. */
    interface Host {
        boolean assistantActive();

        void bargeIn();

        void userTurn(Transcript.Final text, long speechEnd, long finalStamp);

        /** Hands-free: the user has paused long enough to start a reply on {@code text} speculatively. */
        default void tentativeTurn(String text, long speechEnd, long stamp) {
        }

        /** The user spoke again after a {@link #tentativeTurn}: it is withdrawn. */
        default void tentativeWithdrawn() {
        }

        /** Full duplex: speech over the reply, not yet confirmed by words: hold playback. */
        default void pauseReply() {
        }

        /** Full duplex: the speech over the reply brought no words: play on. */
        default void resumeReply() {
        }

        /** Words Parley said lately (lower case): an utterance made only of them, heard over a reply, is echo. */
        default Set<String> echoWords() {
            return Set.of();
        }

        void level(double dbfs);

        void partial(Transcript.Partial partial);

        void error(Throwable t);
    }

    private final AudioSource source;
    private final RecognitionStream asr;
    private final VoiceSettings settings;
    private final Host host;
    private final AudioFrontEnd frontEnd;
    private final VoiceActivityDetector vad;
    private final boolean fullDuplex;
    private final ArrayDeque<Kept> preRoll = new ArrayDeque<>();
    private final StringBuilder segments = new StringBuilder();
    /** The same segments with only the words the recognizer is sure of (what counts over a reply). */
    private final StringBuilder sureSegments = new StringBuilder();
    /** And with only the words it is certain of (a single word of the user's over a reply must be one of them). */
    private final StringBuilder certainSegments = new StringBuilder();
    private volatile boolean running = true;
    private volatile boolean pushToTalk;
    private boolean wasPressed;
    private boolean heardSpeech;
    private long lastVoiced = -1;
    private double silenceMillis;
    private int preRollSamples;
    private String lastPartial = "";
    private boolean tentativeSent;
    /** Full duplex: the utterance began while Parley was talking (its words are checked against the echo). */
    private boolean overReply;
    /** Full duplex: the reply is held while the speech over it is checked for words. */
    private boolean holding;
    private double holdMillis;
    /** How long since a frame of the turn's voice ({@link #voiceGoesOn}), ms. */
    private double sinceVoiceMillis = Double.POSITIVE_INFINITY;
    /** Full duplex: how much voiced speech the VAD heard over the held reply once its echo had cleared, ms. */
    private double heldVoicedMillis;
    /** Full duplex: whether the VAD's own start came during the hold (which may begin on {@link #probableMillis}). */
    private boolean heldInSpeech;
    /** How long the VAD's probability has stayed at or above {@link #OVER_REPLY_PROBABILITY} up to this frame, ms. */
    private double probableMillis;
    /**
     * Full duplex: the short-term levels of the frames that were the user's voice rather than echo ({@link #nearEnd}),
     * from those that started the hold to the moment the reply had gone quiet in the room.
     */
    private NoiseFloor heldNearEnd = new NoiseFloor(Integer.MAX_VALUE);
    /** Full duplex: the room's level (with what the canceller left of the reply) when the hold began, dBFS. */
    private double heldRoomDbfs;
    /**
     * Full duplex: holds that came to nothing (the reply resumed), as {ms of Parley's activity when it resumed, the
     * median level of the hold's near-end frames}, those of the last {@link #RESUMED_HOLDS_MILLIS} ms: how loud what
     * the canceller lets through of the echo gets in this room.
     */
    private final ArrayDeque<double[]> resumedHolds = new ArrayDeque<>();
    /** How long Parley has been active (a reply in flight: thinking or sounding), all its turns together, ms. */
    private double activeMillis;
    /** {@link #activeMillis} when the listen loop last stopped a reply for the user (none yet: minus infinity). */
    private double activeAtBargeIn = Double.NEGATIVE_INFINITY;
    /** Full duplex: how much of the last moments over a reply was the user's voice rather than echo. */
    private final NearEndWindow nearEnd = new NearEndWindow(NEAR_END_WINDOW_MILLIS);
    private final NoiseFloor floor = new NoiseFloor(NoiseFloor.DEFAULT_WINDOW_MILLIS);
    /** The room's level while Parley is silent (what is left of its echo over a reply would raise the floor). */
    private final NoiseFloor quietFloor = new NoiseFloor(NoiseFloor.DEFAULT_WINDOW_MILLIS);
    /**
     * The same quiet, each frame counted {@link #ONSET_LAG_MILLIS} after it was heard and dropped if a turn started
     * meanwhile: its loud moments ({@link #recentStandsOut}) hold none of the user's onsets.
     */
    private final NoiseFloor quietPeaks = new NoiseFloor(NoiseFloor.DEFAULT_WINDOW_MILLIS, ONSET_LAG_MILLIS);
    /**
     * Full duplex: a hold ran its longest without a pause and brought no words; over the reply nothing holds it again
     * until the VAD hears the speech stop.
     */
    private boolean unbrokenRoom;
    /**
     * Whether the turn in progress began before a second of the room's quiet was known (a bed of voices from the first
     * moment keeps the VAD in speech): its unvoiced frames teach the quiet floor, which nothing else would teach while
     * such turns follow one another, and once a second of them is known the level ends it too ({@link #levelJudged}):
     * in `bench duplex` (bedroom, SNR 10) such a turn ran 18-27 s and swallowed the first question. Its voiced frames
     * teach nothing: a user who spoke at once would make their own voice the room's level (`DeviceFaultTest`, whose
     * first question comes at once, heard the next one as "[unk]", cut short as "the room"). Nor does the floor it
     * taught itself judge its level: it teaches no user level and is never dropped as the room's.
     */
    private boolean turnBegunUnknown;
    /**
     * The voiced frames (level, ms) of the turn being heard while Parley is silent, the first {@link
     * #MAX_TURN_FRAMES}: where the turn turns out to be the room's (begun before its quiet was known, {@link
     * #roomBeforeTheCue}, or a long turn of its talking, {@link #LONG_TURN_MILLIS}), they teach it.
     */
    private final List<double[]> turnVoiced = new ArrayList<>();
    /** How loud the user's voice is (from their turns while Parley was silent): over a reply, quieter is the room. */
    private final UserVoice userVoice = new UserVoice(USER_VOICE_MARGIN_DB);
    /** The VAD heard speech start while Parley was silent, but it has not yet stood out of the quiet room's level. */
    private boolean speechPending;
    /**
     * The VAD has been in speech since the last turn ended on the level, for at most {@link #LAST_TURN_SPEECH_MILLIS}
     * (half duplex: it is no barge-in over the reply), and how long ago that turn ended, ms.
     */
    private boolean speechOfLastTurn;
    private double lastTurnSpeechMillis;
    /** How long Parley has been silent (nothing playing, nothing held), ms; 0 while it is active. */
    private double silentMillis;
    /** Parley has made a sound since the loop began (the cue, a reply): before it, no tail is in the room. */
    private boolean spokeOnce;
    /** A turn begun before the room was known was still going as Parley first spoke: the room holds a bed of voices. */
    private boolean bedOfVoices;

    private final java.util.function.DoubleSupplier reduction;

    ListenLoop(AudioSource source, RecognitionStream asr, VoiceSettings settings, Host host, AudioFrontEnd frontEnd,
               VoiceActivityDetector vad) {
        this(source, asr, settings, host, frontEnd, vad, () -> 0);
    }

    /** @param reduction how much the front end reduced the frame read last, dB (see {@code FrontEndSource}) */
    ListenLoop(AudioSource source, RecognitionStream asr, VoiceSettings settings, Host host, AudioFrontEnd frontEnd,
               VoiceActivityDetector vad, java.util.function.DoubleSupplier reduction) {
        this.reduction = reduction;
        this.source = source;
        this.asr = asr;
        this.settings = settings;
        this.host = host;
        this.frontEnd = frontEnd;
        this.vad = vad;
        this.fullDuplex = !settings.halfDuplex() && frontEnd.cancelsEcho();
    }

    /** Whether the loop listens while it talks (echo cancelled and half-duplex off). */
    boolean fullDuplex() {
        return fullDuplex;
    }

    /** How much of the user's voiced speech their level is known from, ms (read once the loop has ended). */
    double userVoiceKnownMillis() {
        return userVoice.knownMillis();
    }

    /** The user's level as the loop knows it, dBFS (read once the loop has ended). */
    double userVoiceLevelDbfs() {
        return userVoice.levelDbfs();
    }

    void setPushToTalk(boolean pressed) {
        pushToTalk = pressed;
    }

    void stop() {
        running = false;
    }

    /**
     * The microphone failed: the utterance it was hearing is incomplete and is dropped at the next frame (the first
     * after the device is back), a held reply plays on.
     */
    void deviceGap() {
        gap = true;
    }

    private volatile boolean gap;

    private void afterGap() {
        gap = false;
        if (holding) {
            host.resumeReply();
        }
        resetUtterance();
        vad.reset();
        preRoll.clear();
        preRollSamples = 0;
    }

    @Override
    public void run() {
        try {
            PcmAudio frame;
            while (running && (frame = source.read()) != null) {
                onFrame(frame);
            }
            if (running && (heardSpeech || !segments.isEmpty())) {
                endTurn(lastVoiced >= 0 ? lastVoiced : System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (running) {
                host.error(e);
            }
        }
    }

    private void onFrame(PcmAudio frame) throws IOException {
        if (gap) {
            afterGap();
        }
        VadEvent ev = vad.process(frame);
        lastTurnSpeechMillis += frame.durationMillis();
        if (!vad.inSpeech() || lastTurnSpeechMillis > LAST_TURN_SPEECH_MILLIS) {
            speechOfLastTurn = false;
        }
        double level = LevelMeter.rmsDbfs(frame);
        host.level(level);
        floor.add(level, frame.durationMillis(), !heardSpeech);
        boolean voiced = vad.lastProbability() >= 0.5;
        // a turn begun before a second of the room was known may be the room's as much as anyone's: its unvoiced
        // frames teach the floor (a bed of voices sits near the VAD's threshold; a user's voice stays above it)
        boolean quiet = (!heardSpeech || turnBegunUnknown && !voiced) && !host.assistantActive();
        quietFloor.add(level, frame.durationMillis(), quiet);
        quietPeaks.add(level, frame.durationMillis(), quiet);
        if (heardSpeech && voiced && !host.assistantActive() && turnVoiced.size() < MAX_TURN_FRAMES) {
            turnVoiced.add(new double[] {level, frame.durationMillis()});
        }
        // a voice close to the microphone stands above the room's level; a bed of other voices sits at it
        boolean standsOut = floor.aboveFloorDb() >= ABOVE_FLOOR_DB;
        long now = System.nanoTime();
        boolean ptt = settings.mode() == VoiceSettings.Mode.PUSH_TO_TALK;
        boolean pressed = pushToTalk;
        boolean pressedNow = pressed && !wasPressed;
        boolean releasedNow = !pressed && wasPressed;
        wasPressed = pressed;
        afterParleySpoke(frame.durationMillis());
        if (host.assistantActive()) {
            activeMillis += frame.durationMillis();
        }

        if (host.assistantActive() && !fullDuplex) {
            keepPreRoll(frame);
            // (not the speech the last turn ended in: where the level ended it, the VAD may still be in it as the
            // reply starts, and the reply stopped itself at once; `DuplexBenchTest`, --aec off, energy VAD)
            boolean trigger = ptt ? pressedNow : vad.inSpeech() && !speechOfLastTurn;
            if (!trigger) {
                return;
            }
            bargeIn();
            resetUtterance();
            if (!ptt) {
                heardSpeech = true;
                lastVoiced = now;
                for (Kept k : preRoll) {
                    feed(k.frame());
                }
            }
            preRoll.clear();
            preRollSamples = 0;
            return;
        }
        if (ptt) {
            if (pressedNow && host.assistantActive()) {
                bargeIn();
            }
            if (pressed) {
                feed(frame);
                heardSpeech = true;
                if (voiced) {
                    lastVoiced = now;
                }
            } else if (releasedNow) {
                endTurn(lastVoiced >= 0 ? lastVoiced : now);
            }
            return;
        }
        if (host.assistantActive() && !heardSpeech && !frontEnd.echoConverged()) {
            // full duplex, but the canceller has not converged yet (the first seconds of the first reply): what the
            // VAD hears may be Parley itself, so nothing over the reply (or the listening cue) is taken as speech yet
            keepPreRoll(frame);
            return;
        }
        probableMillis = vad.lastProbability() >= OVER_REPLY_PROBABILITY ? probableMillis + frame.durationMillis() : 0;
        if (host.assistantActive() && fullDuplex) {
            // near-end dominance: the canceller takes 10 dB and more off echo, next to nothing off the user's voice
            nearEnd.add(frame.durationMillis(), nearEndFrame(standsOut), floor.shortTermDbfs());
        } else {
            nearEnd.clear();
        }
        if (LOG.isLoggable(System.Logger.Level.TRACE)) {
            LOG.log(System.Logger.Level.TRACE, String.format(Locale.ROOT,
                    "frame %.1f dBFS p=%.2f speech=%b reduction=%.1f dB above=%.1f dB quiet+%.1f dB recent+%.1f dB"
                            + " peak+%.1f dB nearEnd=%.0f ms held=%b active=%b pending=%b heard=%b room=%b",
                    level, vad.lastProbability(), vad.inSpeech(), reduction.getAsDouble(), floor.aboveFloorDb(),
                    quietFloor.aboveFloorDb(), quietFloor.recentDbfs() - quietFloor.floorDbfs(),
                    quietFloor.recentDbfs() - quietPeaks.percentileDbfs(ROOM_PEAK_FRACTION), nearEnd.nearEndMillis(),
                    holding, host.assistantActive(), speechPending, heardSpeech, unbrokenRoom));
        }
        if (ev == VadEvent.SPEECH_START && !inEchoTail()) {
            speechPending = true;
        }
        if (!vad.inSpeech()) {
            speechPending = false;
            unbrokenRoom = false;
        }
        // while Parley is silent the VAD's speech starts a turn once it stands out of the quiet room's level (at once
        // in a quiet room, or before a second of it is known)
        boolean startNow = speechPending && recentStandsOut();
        // and the turn goes on only while it still does: a bed of voices keeps the VAD in speech after the user's last
        // word, but sits at the room's level (see levelJudged)
        boolean judged = levelJudged();
        boolean voiceGoesOn = voiceGoesOn(frame.durationMillis());
        boolean roomOnly = judged && !voiceGoesOn;
        if (host.assistantActive() && !heardSpeech) {
            // over a reply an utterance starts only where the VAD hears speech and its voiced frames of late were ones
            // the canceller left mostly untouched (the user's voice), not what is left of the echo
            startNow = (vad.inSpeech() || probableMillis >= OVER_REPLY_PROBABLE_MILLIS)
                    && nearEnd.nearEndMillis() >= settings.vad().minSpeechMillis() && !unbrokenRoom;
            if (startNow) {
                overReply = true;       // full duplex: hold the reply until the recognizer says whether this is the user
                holding = true;
                holdMillis = 0;
                heldVoicedMillis = 0;
                heldInSpeech = false;
                heldNearEnd = new NoiseFloor(Integer.MAX_VALUE);
                heldRoomDbfs = floor.floorDbfs();
                nearEnd.forEachNearEnd((levelDbfs, millis) -> heldNearEnd.add(levelDbfs, millis, true));
                debug("hold: %.0f ms of near-end speech (reduction %.1f dB, %.1f dB above the room)", nearEnd.nearEndMillis(),
                        reduction.getAsDouble(), floor.aboveFloorDb());
                host.pauseReply();
            }
        }
        if (!heardSpeech) {
            // Until speech starts the recognizer is not fed: long stretches of (digital) silence
            // skew Vosk's online mean normalisation (measured: 3 s of leading zeros turn "tell me a
            // joke" into [unk]) and decoding silence wastes CPU. The pre-roll keeps the onset.
            keepPreRoll(frame);
            if (!startNow) {
                return;
            }
            heardSpeech = true;
            speechPending = false;
            if (!overReply) {
                quietPeaks.forgetLagging();     // the onset before the VAD's start was the user's, not the room
            }
            turnBegunUnknown = !overReply && !known(quietFloor);
            if (overReply) {
                // what came before the user's onset is what is left of Parley's own voice: fed, the grammar-limited
                // recognizer made words of it with a cough ("who are you" from the residue of "how are you")
                trimPreRoll(samples(nearEnd.sinceFirstMillis() + OVER_REPLY_ONSET_MILLIS, frame.sampleRate()));
            } else {
                countOnset(frame);
            }
            feedPreRoll();
        } else if (vad.inSpeech() && !roomOnly && (voiced || !judged)) {
            // speech again after a pause inside the turn: the held-back pause first (the onset). Where the level judges
            // the turn, only a voiced frame brings it back: a clink of cups stands out of a café but is no voice, and
            // fed with the pause before it the recognizer made "hello eight" of "hello"
            feedPreRoll();
            feed(frame);
        } else {
            // a pause, or the end of the turn: the recognizer hears it only if speech follows. Fed on, a grammar-
            // limited recognizer makes words of the noise after the last one ("tell me a joke ten" in babble)
            keepPreRoll(frame);
        }
        boolean decideNow = false;     // full duplex: the held speech is decided at this frame, paused or not
        if (holding) {
            holdMillis += frame.durationMillis();
            heldInSpeech |= vad.inSpeech();
            if (holdMillis < ECHO_CLEARED_MILLIS && voiced && nearEndFrame(standsOut)) {
                heldNearEnd.add(floor.shortTermDbfs(), frame.durationMillis(), true);
            }
            if (holdMillis >= ECHO_CLEARED_MILLIS && voiced && vad.inSpeech()) {
                // the reply has gone quiet in the room: what the VAD hears now is someone in it, not the echo's rest;
                // its level is the voice that stands out of the room's quiet (a barge-in's words, not the bed after it)
                heldVoicedMillis += frame.durationMillis();
                if (recentStandsOut()) {
                    userVoice.heardOverHeldReply(floor.shortTermDbfs(), frame.durationMillis());
                }
            }
            if (heldVoicedMillis >= HELD_JUDGED_MILLIS
                    && !(userVoice.heldIsTheUser() && userVoice.heldMillis() >= HELD_VOICE_MILLIS)) {
                if (userVoice.heldIsTheUser() || userVoice.heldMillis() < UserVoice.MIN_HELD_MILLIS) {
                    // little or no voice stood out once the echo had cleared: a short barge-in that ended about when
                    // it did, or the room. What the recognizer heard decides now, as where the speech pauses ({@link
                    // #endedUnheard}): a bed of voices keeps the VAD in speech, and "how are you" 0.6 s into the reply
                    // (80 ms of it after the echo cleared) was otherwise lost in it (bedroom, SNR 10, offline sweep)
                    decideNow = true;
                } else {
                    // a second of speech well below the user's own level: someone else in the room, not a barge-in
                    debug("resume: speech over the hold at %.1f dBFS, the user's is %.1f", userVoice.heldLevelDbfs(),
                            userVoice.levelDbfs());
                    falseInterruption(vad.inSpeech());
                    return;
                }
            }
            if (userSpoke(sureSegments.toString(), certainSegments.toString(), host.echoWords())
                    && userVoice.heldIsTheUser()) {
                holding = false;
                debug("barge-in: segment \"%s\" after %.0f ms of hold, held %.0f ms at %.1f dBFS against the user's %.1f"
                        + " (of %.0f ms)", sureSegments, holdMillis, userVoice.heldMillis(), userVoice.heldLevelDbfs(),
                        userVoice.levelDbfs(), userVoice.knownMillis());
                bargeIn();         // confirmed: the utterance goes on as the next turn
            }
        }
        if (voiced && vad.inSpeech() && !roomOnly) {
            if (heardSpeech && !overReply) {
                userVoice.heard(floor.shortTermDbfs(), frame.durationMillis());
            }
            lastVoiced = now;
            silenceMillis = 0;
            if (tentativeSent) {
                tentativeSent = false;
                host.tentativeWithdrawn();
            }
        } else {
            silenceMillis += frame.durationMillis();
        }
        if (holding && (decideNow || !vad.inSpeech() && silenceMillis >= settings.falseInterruptionMillis()
                || holdMillis >= MAX_HOLD_MILLIS)) {
            // the speech over the reply paused (or went on for long): its final transcript decides
            boolean unbroken = vad.inSpeech();
            Transcript.Final last = asr.finish();
            String heard = (segments + " " + last.text()).strip();
            String text = (sureSegments + " " + last.sure()).strip();
            boolean words = unbroken ? userWordCount(text, host.echoWords()) >= 2
                    : userSpoke(text, certainSegments + " " + last.certain(), host.echoWords());
            // the voice that held the reply was as loud as the user's own: the user's, so what the recognizer heard of
            // it counts as it does in a turn begun while Parley was silent, sure of it or not
            // (not where the speech ran the whole hold: a bed of voices kept the VAD in speech, and its words, not the
            // user's, fill the transcript: "one" for "how are you" after 4 s, bedroom, SNR 10)
            boolean nearEndUser = holdMillis < MAX_HOLD_MILLIS && heldNearEndIsTheUser()
                    && userWordCount(heard, host.echoWords()) >= 1;
            debug("hold decided after %.0f ms (%s): heard \"%s\", sure \"%s\", certain \"%s\", held %.0f ms at %.1f"
                    + " dBFS against the user's %.1f (of %.0f ms), near-end %.0f ms at %.1f over a room at %.1f, %.0f ms"
                    + " of Parley's activity since its last barge-in", holdMillis,
                    unbroken ? "unbroken" : "pause", heard, text, (certainSegments + " " + last.certain()).strip(),
                    userVoice.heldMillis(), userVoice.heldLevelDbfs(), userVoice.levelDbfs(), userVoice.knownMillis(),
                    heldNearEnd.historyMillis(), heldNearEnd.floorDbfs(), heldRoomDbfs, activeMillis - activeAtBargeIn);
            if (nearEndUser || words && (userVoice.heldIsTheUser()
                    || endedUnheard(certainSegments + " " + last.certain(), decideNow))) {
                if (nearEndUser && userWordCount(text, host.echoWords()) == 0) {
                    text = heard;
                }
                holding = false;
                bargeIn();
                long stamp = System.nanoTime();
                resetUtterance();
                host.userTurn(new Transcript.Final(text), lastVoiced >= 0 ? lastVoiced : now, stamp);
                return;
            }
            falseInterruption(unbroken);
            return;
        }
        if (holding) {
            return;
        }
        if (heardSpeech && (!vad.inSpeech() || roomOnly) && silenceMillis >= settings.endOfTurnSilenceMillis()) {
            endTurn(lastVoiced >= 0 ? lastVoiced : now);
            // the VAD may still hear the room's voices: the next turn starts where a voice stands out of them again
            speechPending = vad.inSpeech();
            speechOfLastTurn = vad.inSpeech();
            lastTurnSpeechMillis = 0;
        } else if (heardSpeech && !tentativeSent && settings.speculateAfterMillis() > 0
                && silenceMillis >= settings.speculateAfterMillis() && !lastPartial.isBlank()) {
            // The live transcript of everything heard so far; the final one is compared with it at the end.
            tentativeSent = true;
            host.tentativeTurn(lastPartial, lastVoiced >= 0 ? lastVoiced : now, System.nanoTime());
        }
    }

    /**
     * Parley's own sound ends (a reply, the listening cue): a speech start the VAD heard over it (the echo's rest, or
     * a bed of voices heard while the cue's echo was not yet judged) starts no turn, since the room still holds the
     * sound's tail for the device's latency and the reverberation. Once {@link #ECHO_TAIL_MILLIS} of silence have
     * passed, speech the VAD still hears is the room's or the user's: it is pending, and starts a turn where it stands
     * out of the quiet room's level. Without the first rule the tail of a reply, 6 dB above the user's voice, stood out
     * of the quiet and became a turn ("hello" from the reply's last word, kitchen and meeting room at SNR 10, offline
     * sweep); without the second a bed of voices that kept the VAD in speech from the listening cue on left the first
     * question unheard (bedroom and small office, SNR 10).
     */
    private void afterParleySpoke(double frameMillis) {
        if (host.assistantActive()) {
            if (!spokeOnce && heardSpeech && turnBegunUnknown && !overReply) {
                roomBeforeTheCue();
            }
            silentMillis = 0;
            spokeOnce = true;
            return;
        }
        if (silentMillis == 0 && !heardSpeech) {
            speechPending = false;
        }
        double before = silentMillis;
        silentMillis += frameMillis;
        if (before < ECHO_TAIL_MILLIS && silentMillis >= ECHO_TAIL_MILLIS && !heardSpeech && vad.inSpeech()) {
            speechPending = true;
        }
    }

    /**
     * Parley's first sound (the listening cue) starts while a turn begun before the room's quiet was known goes on: it
     * is the room's, not the user's, who waits for the cue. It is dropped, and its frames teach the room's quiet, so
     * that what the VAD still hears after the cue is judged against the room (pending) and not started at once. Without
     * this a bed of voices that made the VAD start in the first second (before a second of the room was known) ran as
     * one turn for 6.5-29 s and swallowed the first question ("four what is your name one"; `bench duplex`, bedroom,
     * SNR 10; the offline sweep at SNR 6). The price: a user who speaks before the cue and on over it must say it again,
     * and their voice is the room's for a few seconds.
     */
    private void roomBeforeTheCue() {
        debug("turn begun before the room was known still going as Parley first speaks (%.0f ms of voice): the room's,"
                + " dropped", userVoice.pendingMillis());
        for (double[] f : turnVoiced) {
            quietFloor.addLater(f[0], f[1]);
            quietPeaks.addLater(f[0], f[1]);
        }
        bedOfVoices = true;
        boolean withdraw = tentativeSent;
        resetUtterance();
        if (withdraw) {
            host.tentativeWithdrawn();
        }
    }

    /**
     * Whether enough of the room's quiet is known to judge a voice against it: a second of it, or {@value
     * #BED_KNOWN_MILLIS} ms once a turn begun before the room was known turned out to be the room's ({@link
     * #roomBeforeTheCue}): those frames are the bed's voices themselves, and the next voice of the bed is to be judged
     * against them, not taken at once. Measured on the offline sweep at `bench duplex`'s levels, babble at SNR 10: the
     * dropped turn taught 680 ms (living room), the bed's next voice (1 dB above the loud moments it had taught) made a
     * turn at 2.9 s and Parley answered it ("goodbye") before the user asked at 3 s, in all five rooms; with this, the
     * question is the first turn in all five, and of the ten barge-ins over its reply (100 cases, SNR 20 and 10) 69
     * were caught instead of 49, 53 exact instead of 39 (docs/benchmarks.md, session 37).
     */
    private boolean known(NoiseFloor f) {
        return f.historyMillis() >= (bedOfVoices ? BED_KNOWN_MILLIS : NoiseFloor.MIN_HISTORY_MILLIS);
    }

    /** See {@link #known}. */
    static final double BED_KNOWN_MILLIS = 400;

    /** At most this many voiced frames of a turn are kept to teach the room, should the turn be the room's. */
    static final int MAX_TURN_FRAMES = 500;

    /**
     * Full duplex: whether the frame just heard over the reply was the user's voice rather than echo: the VAD leans
     * to speech, it stands out of the room, and the canceller took little off it.
     */
    private boolean nearEndFrame(boolean standsOut) {
        return vad.lastProbability() >= NEAR_END_MIN_PROBABILITY && standsOut
                && reduction.getAsDouble() < NEAR_END_MAX_REDUCTION_DB;
    }

    /**
     * Full duplex: whether the voice that held the reply, before the reply had gone quiet in the room, was as loud as
     * the user's own: the median short-term level of its near-end frames ({@link #heldNearEnd}) no more than {@value
     * #NEAR_END_USER_DB} dB below the user's level, once that is known. Such speech is the user's, not the echo's
     * rest, however short: a lone "stop" is over before the echo clears.
     */
    private boolean heldNearEndIsTheUser() {
        double level = heldNearEnd.floorDbfs();
        return userVoice.known() && heldNearEnd.historyMillis() >= settings.vad().minSpeechMillis() && heldInSpeech
                && !soonAfterBargeIn()
                && level >= userVoice.levelDbfs() - NEAR_END_USER_DB
                && level >= heldRoomDbfs + NEAR_END_ABOVE_ROOM_DB
                && level >= echoLetThroughDbfs() + ABOVE_RESUMED_HOLDS_DB;
    }

    /**
     * Full duplex: whether the voice that held the reply ({@link #heldNearEnd}) sat more than {@link
     * #USER_VOICE_MARGIN_DB} below the user's level: someone else, or the echo the canceller let through, as for
     * speech heard over the held reply once it is quiet. Measured on the offline sweep (living room, SNR 10, after a
     * barge-in): echo 7 dB below the user's level heard as two certain words ("one no") stopped the reply; no barge-in
     * of the sweep that far below the user was heard as its words.
     */
    private boolean heldNearEndTooSoft() {
        return userVoice.known() && heldNearEnd.floorDbfs() < userVoice.levelDbfs() - USER_VOICE_MARGIN_DB;
    }

    /**
     * The loudest near-end level of the holds of the last {@link #RESUMED_HOLDS_MILLIS} ms of Parley's activity that
     * came to nothing ({@link LevelMeter#SILENCE_DBFS} if none); older ones are forgotten.
     */
    private double echoLetThroughDbfs() {
        while (!resumedHolds.isEmpty() && activeMillis - resumedHolds.peekFirst()[0] > RESUMED_HOLDS_MILLIS) {
            resumedHolds.removeFirst();
        }
        double loudest = LevelMeter.SILENCE_DBFS;
        for (double[] h : resumedHolds) {
            loudest = Math.max(loudest, h[1]);
        }
        return loudest;
    }

    /**
     * Less than {@link #AFTER_BARGE_IN_MILLIS} ms of Parley's activity since the listen loop last stopped a reply: the
     * canceller is still re-converging, and speech that ended before the reply went quiet in the room may be its echo.
     */
    private boolean soonAfterBargeIn() {
        return activeMillis - activeAtBargeIn < AFTER_BARGE_IN_MILLIS;
    }

    /** Stops the reply for the user's voice, and notes when (the canceller re-converges after double talk). */
    private void bargeIn() {
        activeAtBargeIn = activeMillis;
        host.bargeIn();
    }

    /** Parley is silent, but less than {@link #ECHO_TAIL_MILLIS} since its sound ended (never at the start). */
    private boolean inEchoTail() {
        return !host.assistantActive() && silentMillis < ECHO_TAIL_MILLIS && spokeOnce;
    }

    /**
     * How long after Parley's sound ends the room may still hold its echo (latency and reverberation): a speech start
     * heard in it is not taken as the user's, speech still heard after it is pending.
     */
    static final double ECHO_TAIL_MILLIS = 400;

    /**
     * Whether the level of the last {@value NoiseFloor#RECENT_MILLIS} ms stands out of the room's quiet (Parley
     * silent): {@link #ABOVE_FLOOR_DB} above its median, and {@link #ROOM_PEAK_MARGIN_DB} above its loud moments (the
     * level {@link #ROOM_PEAK_FRACTION} of its quiet lies below). A bed of voices peaks 8-10 dB above its own median
     * for a few hundred ms at a time (bedroom, babble at SNR 10, offline sweep): judged against the median alone, such
     * peaks after the user's last word counted as their voice, the turn ended 1.1 s later than at SNR 20 and took a
     * word of the bed with it ("goodbye five"). And the short-term level's decay took about 400 ms more to fall to the
     * room's after the last word, where this level takes about 100.
     */
    private boolean recentStandsOut() {
        if (!known(quietFloor)) {
            return true;
        }
        double recent = quietFloor.recentDbfs();
        return recent - quietFloor.floorDbfs() >= ABOVE_FLOOR_DB
                && (!known(quietPeaks)
                || recent - quietPeaks.percentileDbfs(ROOM_PEAK_FRACTION) >= ROOM_PEAK_MARGIN_DB);
    }

    /**
     * The room's quiet counts a frame only this long after it was heard, ms: a turn is known only once the VAD has
     * heard 160-300 ms of it, and the onset before that, counted as the room's, made the loud moments of a silent
     * room's quiet the user's own voice (`FirstTurnLevelTest`: 1.5 s of silence, then a question that never stood out).
     */
    static final int ONSET_LAG_MILLIS = 500;

    /**
     * Whether a turn's voice goes on in this frame: its recent level stands out of the room's quiet ({@link
     * #recentStandsOut}), or, within {@link #VOICE_CHAIN_MILLIS} of a frame that did, stands {@link #ABOVE_FLOOR_DB}
     * above its median. A voice's quieter syllables follow its loud ones without a gap; a bed's peak comes after a
     * pause. Measured: in a café 10 dB below the user (`TurnsInBabbleTest`) "time is it" after a loud "what" stood 7-9
     * dB above the café's median but only 1-3 above its loud moments (clinks): judged by those alone it was a pause,
     * held back from the recognizer, which heard "[unk]"; in the bedroom's babble at SNR 10 the bed's peaks 8-10 dB
     * above its median came 200-300 ms after the user's last word (offline sweep).
     */
    private boolean voiceGoesOn(double frameMillis) {
        boolean on = recentStandsOut() || sinceVoiceMillis < VOICE_CHAIN_MILLIS
                && quietFloor.recentDbfs() - quietFloor.floorDbfs() >= ABOVE_FLOOR_DB;
        sinceVoiceMillis = on ? 0 : sinceVoiceMillis + frameMillis;
        return on;
    }

    /**
     * Half duplex: how long after a turn the level ended the VAD's speech still counts as that turn's (its hangover,
     * 250 ms for the energy VAD), not a barge-in, ms. Unbounded, a bed of voices that kept the VAD in speech made every
     * barge-in wait for it to pause (`TurnsInBabbleTest`, babble at 10 dB: two questions lost in a clean-clone CI run).
     */
    static final double LAST_TURN_SPEECH_MILLIS = 1000;

    /** How long after the last frame of a turn's voice a quieter one still continues it, ms ({@link #voiceGoesOn}). */
    static final double VOICE_CHAIN_MILLIS = 60;

    /** The share of the room's quiet that its loud moments stand above ({@link #recentStandsOut}). */
    static final double ROOM_PEAK_FRACTION = 0.95;

    /** How far above the room's loud moments a voice stands ({@link #recentStandsOut}), dB. */
    static final double ROOM_PEAK_MARGIN_DB = 3;

    /**
     * Whether the turn in progress holds less than a word's worth of voiced frames that stood out of the room ({@link
     * #MIN_VOICE_MILLIS}), or none: a peak of a bed of voices started it (the VAD was
     * in speech all along), and what the recognizer made of the pre-roll ("five", "one", "") is the room's. Measured in
     * {@code TurnsInBabbleTest} at 10 dB once turns ended on the level: three such turns in eight questions.
     */
    private boolean unvoiced() {
        return userVoice.pendingMillis() < MIN_VOICE_MILLIS;
    }

    /**
     * A turn begun while Parley is silent needs this much voiced speech that stood out of the room, ms, however loud
     * and whether or not the user's level is known: a word is longer (the first 80 ms of "hello" gave 140 ms of voice
     * through the bedroom's reverberation). A bed of voices' peak that started a turn after a reply held
     * 60 ms of it, 8-10 dB below the user, and made a turn of its own ("one", "four"; offline sweep, SNR 10). Session
     * 29 let such a short turn through where it came within the 6 dB margin of the user's level: in `bench duplex`
     * (babble, SNR 10) the bed's peaks came 5-6 dB below the user's for 60-100 ms, and four of its five noise false
     * turns were those ("one", "hello", "goodbye", "[unk]"). The questions of {@code TurnsInBabbleTest} stand out for
     * 160 ms or more.
     */
    static final double MIN_VOICE_MILLIS = 120;

    /**
     * Whether the level judges the turn in progress: a hands-free turn begun while Parley was silent, once a second of
     * the room's quiet was known. Such a turn has only the room left in it ({@code roomOnly}) where the level over the
     * last 150 ms no longer stands {@link #ABOVE_FLOOR_DB} above the room's quiet, whatever the VAD says. Frames so
     * are a pause of the turn: not fed to the recognizer (unless a voiced frame that stands out follows, which takes
     * the pause with it), counted towards the end-of-turn silence, not the user's level. In a bed of voices the Silero
     * VAD stays in speech after the user's last word, so a turn ended only when the bed happened to pause: measured in
     * {@code TurnsInBabbleTest} (babble 10 dB below eight questions), questions ran together ("what time is it what
     * time is it [unk] three") and the bed's words were added to them. The level falls from the
     * user's to the room's within about 150 ms of the last word (the short-term level's time constant), so the turn
     * ends about as soon after it as in a quiet room. Over a reply the hold's own rules apply instead; a turn begun
     * before the room's quiet was known ({@link #turnBegunUnknown}) is judged once its own unvoiced frames have taught
     * the floor a second of it.
     */
    private boolean levelJudged() {
        return heardSpeech && (!overReply || !host.assistantActive()) && !holding
                && known(quietFloor);
    }

    /**
     * Over a reply, speech holds it only where its level over the last 150 ms stands this far above the median level
     * of the last seconds ({@link NoiseFloor}): a bed of voices in the room keeps the VAD in speech and the recognizer
     * makes words of it, but it does not stand out of itself. While Parley is silent a turn starts where speech
     * stands as far above the level of the room's quiet moments only: measured, one floor over everything (the
     * reply's residue included) left questions unanswered ("hello", "thank you" in the living room).
     */
    static final double ABOVE_FLOOR_DB = 6;

    /**
     * Full duplex: speech over a held reply whose median short-term level is more than this below the user's voice
     * (the same median over their turns, {@link UserVoice}) is someone else in the room: its words stop nothing. A
     * hands-free turn begun while Parley was silent and as far below is the room too, and makes no turn: measured in
     * `bench duplex` (five rooms, SNR 20 and 10), the user's questions came out within 1.5 dB of their level or above
     * it (one fragment, "are you", 6.5 dB below it but 6.5 dB above the room's quiet), the turns a bed of voices made
     * 9-13.5 dB below it and within 3 dB of the room's quiet. So only where it also stands less than {@link
     * #ABOVE_FLOOR_DB} above the room's quiet, or less than {@link #ABOVE_ROOM_PEAKS_DB} above its loud moments: a
     * user who stepped back still stands out of it.
     */
    static final double USER_VOICE_MARGIN_DB = 6;

    /**
     * A turn begun while Parley was silent, more than {@link #USER_VOICE_MARGIN_DB} below the user's level, is the
     * room's where its median level stands less than this above the room's loud moments (the level {@link
     * #ROOM_PEAK_FRACTION} of its quiet lies below). A bed of voices peaks 8-10 dB above its own median: measured in
     * {@code TurnsInABedFromTheStartTest} (bedroom, babble at SNR 10), a turn of the bed after the reply held 560 ms
     * of voice at -41 dBFS, 6.5 dB below the user's level, 9.5 dB above the room's median and 3 dB above its loud
     * moments; the user's question stood 9.5 dB above them.
     */
    static final double ABOVE_ROOM_PEAKS_DB = 6;

    /**
     * Whether a turn's level sits within the room: less than {@link #ABOVE_FLOOR_DB} above its quiet, or less than
     * {@link #ABOVE_ROOM_PEAKS_DB} above its loud moments once they are known.
     */
    private boolean withinTheRoom(double levelDbfs) {
        return levelDbfs < quietFloor.floorDbfs() + ABOVE_FLOOR_DB
                || known(quietPeaks)
                && levelDbfs < quietPeaks.percentileDbfs(ROOM_PEAK_FRACTION) + ABOVE_ROOM_PEAKS_DB;
    }

    /**
     * A turn begun while Parley was silent with at least this much voice, whose loudest {@link #LOUDEST_MILLIS} ms
     * stay more than {@link #LONG_TURN_MARGIN_DB} below the user's level, is the room talking (a television, a radio,
     * people across the room), whatever the room's quiet: such voices keep the VAD in speech for many seconds, so the
     * quiet the room is judged by was learnt in a pause of theirs. Measured in `bench duplex` (kitchen, babble at SNR
     * 10): a 15.4 s turn 9.5 dB below the user, 13 dB above the room's loud moments, was answered ("what can you do
     * what is your name"). In {@code LongTurnsOfTheRoomTest} (five rooms, a voice talking on for 20 s, its active level
     * 9.5 dB below the user's) the turns held 13.9-16.2 s of voice, their loudest half second 5.2-6.9 dB below the
     * user's level; with the user's question said over it, 1.2 dB below to 0.6 dB above it. The user's own long turn
     * holds their level too. The dropped turn's voiced frames teach the room's loud moments ({@link #quietPeaks}), so
     * that what the same voice says next in less than 4 s is the room's by {@link #withinTheRoom}: in {@code
     * LongTurnsOfTheRoomTest} a sentence of the talker 2.5 s after its 20 s was otherwise a turn of its own.
     */
    static final double LONG_TURN_MILLIS = 4000;
    /** See {@link #LONG_TURN_MILLIS}: how much of a long turn's loudest voice is weighed, ms. */
    static final double LOUDEST_MILLIS = 500;
    /** See {@link #LONG_TURN_MILLIS}: halfway between the talking room's loudest voice and the user's, dB. */
    static final double LONG_TURN_MARGIN_DB = 3;
    /**
     * A long turn ({@link #LONG_TURN_MILLIS}) taken as the user's may be a question said into the room's talking, whose
     * voice fills most of it: it teaches the user's level nothing once that level is known, and a first turn teaches it
     * only with its voiced frames within this much of its loudest {@link #LOUDEST_MILLIS} ms. Measured in `bench duplex`
     * (kitchen, babble at SNR 10): "open the settings" said in the bed made a 10 s turn whose median, -36 dBFS, became
     * the user's level (theirs is -26); the bed's "one" at -40 was then as loud as the user's and a noise false turn. In
     * {@code LongTurnsOfTheRoomTest} the question over a talker 9.5 dB below the user taught the talker's level (-44
     * dBFS against the user's -38), and the talker's next 8 s were then a turn; keeping the frames within 9 dB of the
     * loudest still left -44 (the talker's loud syllables reach that far). Where such a turn's median stays more than
     * {@link #USER_VOICE_MARGIN_DB} below the user's level (it is mostly the room's voice), its voiced frames below
     * that margin teach the room's loud moments, as a dropped long turn's do: in `bench duplex` (kitchen, babble at SNR
     * 10) a 25.5 s turn at -36 dBFS held the question, and the bed's "one" at -40 later stood 10 dB above loud moments
     * learnt only in the bed's lulls (-50.5) and was a turn.
     */
    static final double LONG_TURN_USER_DB = 6;

    /** Whether the turn being heard is a long one of the room's talking ({@link #LONG_TURN_MILLIS}). */
    private boolean roomTalking() {
        return userVoice.known() && userVoice.pendingMillis() >= LONG_TURN_MILLIS
                && userVoice.pendingLoudestDbfs(LOUDEST_MILLIS) < userVoice.levelDbfs() - LONG_TURN_MARGIN_DB;
    }

    /**
     * Full duplex: how long after the reply is held the room holds none of it (the line's {@value
     * dev.parley.audio.playback.SpeakerSink#LEAD_MILLIS} ms lead, the device's latency, the tail the canceller leaves).
     * Only speech heard after that confirms a barge-in: measured, a stretch of the echo the canceller let through
     * (echo as loud as the user) held the reply, fell silent 160 ms later with the playback, and the fixture recognizer
     * had made "who are you" of it.
     */
    static final double ECHO_CLEARED_MILLIS = 300;

    /**
     * Full duplex: how far below the user's own level the near-end frames that held a reply may sit and still be
     * their voice ({@link #heldNearEndIsTheUser}). Measured on the offline sweep (five rooms, SNR 20 and 10, babble,
     * echo +6 dB; ten recordings of "stop", "thank you", "how are you", "open the settings" and "set a timer for five
     * minutes" 0.6 s into the reply): the barge-ins' near-end frames sat within a few dB of the user's level (84 of 91
     * at -2 dB or above), while the holds on what the canceller let through of the echo sat at -1.5 to -14.5 dB, the
     * two closest (-2 and -1.5 dB) in the living room at SNR 10, where the canceller leaks after a barge-in.
     */
    static final double NEAR_END_USER_DB = 1.5;

    /**
     * Full duplex: for this many ms of Parley's activity after a barge-in (its thinking and its sound, {@link
     * #activeMillis}), a held reply is not stopped on speech that ended before the reply had gone quiet in the room,
     * neither by its level ({@link #heldNearEndIsTheUser}) nor by two certain words ({@link #endedUnheard}): the
     * user's voice over the reply (double talk) sets the canceller back, and until it has re-converged on the next
     * reply it lets echo through at the user's level and above. Measured: `FullDuplexPipelineTest`'s quiet room, 1 s
     * into the reply after a barge-in, echo 3.5-6 dB above the user's level heard for sure as "who are you" (the
     * clean-clone CI failure of 974adb9); `bench duplex`, echo 6.5 dB above it 0.8 s into such a reply heard as four
     * certain words (session 31), and 4.5 dB above it 2.5 s into one, 3.2 s after the barge-in, as "repeat that"
     * (session 32). Speech the VAD still hears once the reply is quiet is judged as before.
     */
    static final double AFTER_BARGE_IN_MILLIS = 5_000;

    /**
     * Full duplex: how far above the room's level (its median, with what the canceller leaves of the reply) the
     * near-end frames that held a reply must stand for {@link #heldNearEndIsTheUser}: the user, at the laptop, stands
     * far out of it; echo let through does not. Same sweep: 87 of 91 barge-ins stood 12.5-35 dB above the room, the
     * holds on echo 6-14 dB. 12.5 dB was not enough in `bench duplex` (living room, SNR 10, whose bed is a few dB
     * louder than the sweep's at 10): echo let through at the user's level stood 12.5 dB out and stopped a reply on
     * "one", while a real "how are you" stood 12 dB out. At 15 dB the rule serves rooms where the user stands well
     * out of the bed; in louder ones short barge-ins still need two certain words.
     */
    static final double NEAR_END_ABOVE_ROOM_DB = 15;

    /**
     * Full duplex: for {@link #heldNearEndIsTheUser} the near-end frames must also stand this far above those of the
     * holds of the last {@link #RESUMED_HOLDS_MILLIS} ms of Parley's activity that came to nothing: where the canceller
     * leaks (the living room at SNR 10 after a barge-in, offline sweep), the echo it lets through held the reply again
     * and again, 3-5.5 dB below the user, until one such hold came at the user's level and the reply stopped on it.
     */
    static final double ABOVE_RESUMED_HOLDS_DB = 3;

    /** Full duplex: how long a hold that came to nothing says how loud the echo gets, ms of Parley's activity. */
    static final double RESUMED_HOLDS_MILLIS = 30_000;

    /**
     * Full duplex: after this much voiced speech over a held reply, speech that did not stand out of the room's quiet
     * for {@link #HELD_VOICE_MILLIS} at about the user's level resumes it.
     */
    static final double HELD_JUDGED_MILLIS = 1000;

    /**
     * Full duplex: how much of the voiced speech over a held reply must stand out of the room's quiet, at about the
     * user's level, for the hold to go on past {@link #HELD_JUDGED_MILLIS}. The level over the hold is that of the
     * frames that stood out: measured with all voiced frames (offline sweep, SNR 10), "how are you" 0.6 s into the
     * reply gave 250 ms of the user and 750 of the bed, whose median resumed the reply as someone else's once the
     * user's level was known.
     */
    static final double HELD_VOICE_MILLIS = 100;

    /**
     * Full duplex: a frame whose level the front end cut by less than this is the user's voice, not echo (the
     * reduction is set against the capture of the same moment, {@link dev.parley.audio.frontend.FrontEndSource}).
     * Measured at echo +6 dB: 10 dB (and no wait for the VAD's own minimum speech) held a barge-in about 100 ms
     * sooner (offline, five rooms), but in the live kitchen (120 ms latency, RT60 0.65 s) it held on the echo's rest
     * again and again and the recognizer made words of it: 6 self-interruptions in 3 trials (`bench duplex`, seed 4,
     * SNR 20), against 1 with 6 dB.
     */
    static final double NEAR_END_MAX_REDUCTION_DB = 6;

    /**
     * Full duplex: the near-end test counts the user's frames over this span; a hold needs the VAD's minimum speech of
     * them ({@link NearEndWindow}) while the VAD is in speech. Measured in `bench duplex` at echo +6 dB: an unbroken run
     * of 100 ms was asked for at the frame where the VAD was in speech, and its start came 100-140 ms after its
     * probability rose, when the run had often ended: the hold waited for a second run, 350 ms later, or never came.
     * Not waiting for the VAD's start at all held sooner (three runs of five rooms: median 301-412 ms from the onset,
     * against 712 ms before) but paused the reply on the echo's rest 3-10 times a run (against 2), and once the
     * recognizer made a turn of it ("what time is it" in the small office); replayed on those runs' frame traces,
     * waiting for the VAD's start while counting over the span keeps about three quarters of those holds of the user
     * and of the pauses on echo alike.
     */
    static final double NEAR_END_WINDOW_MILLIS = 200;

    /**
     * Full duplex: a frame counts towards the near-end test from this VAD probability, below its own threshold of
     * speech (0.5): the hold still waits for the VAD to be in speech, but the frames of the onset, where the canceller
     * leaves the voice whole, count. Measured in `bench duplex` (bedroom, echo +6 dB, SNR 20, after the listening
     * cue): "how are you" over the first reply cut by 0.5-2.5 dB for its first 100 ms while Silero's probability rose
     * through 0.30-0.47; when the VAD was in speech 240 ms after the onset the echo of the reply was back over it (7-14
     * dB of reduction) and the window held 80 ms of the user, not the 100 it needs: no hold, and the short barge-in was
     * lost. Replayed on that run's frame trace, 0.3 held it then, and made one more hold on echo in 30 trials.
     */
    static final double NEAR_END_MIN_PROBABILITY = 0.3;

    /** Full duplex: see {@link #OVER_REPLY_PROBABLE_MILLIS}. */
    static final double OVER_REPLY_PROBABILITY = 0.5;

    /**
     * Full duplex: over a reply, speech holds it once the VAD's probability has stayed at or above {@link
     * #OVER_REPLY_PROBABILITY} this long (three of Silero's 32 ms windows), with the near-end window's frames of the
     * user's voice, before the VAD's own start (160 ms at 0.5, for the knocks and clicks that hold it for up to four
     * windows): a hold costs a pause, not the reply, and the held speech is judged on its words as before. Offline
     * sweep (five rooms, babble at SNR 20 and 10, echo +6 dB, 100 barge-ins of five phrases): the hold 305 ms after the
     * onset (median) instead of 345, 82 barge-ins caught instead of 80, 80 holds on echo that resumed instead of 74.
     * Speech that held the reply so and never made the VAD start is not confirmed by its level or by words that ended
     * before the echo cleared ({@link #heldInSpeech}): in `bench duplex` the "set" of "set a timer for five minutes"
     * held the reply, the VAD did not start before the pause after it, and the level rule took the recognizer's guess
     * "ten" as the turn; the rest of the sentence then stopped the next reply.
     */
    static final double OVER_REPLY_PROBABLE_MILLIS = 96;

    /**
     * Full duplex: over a reply the recognizer hears this much from before the near-end test's first frame (the
     * VAD's onset comes a little late), not the whole pre-roll.
     */
    static final double OVER_REPLY_ONSET_MILLIS = 300;

    /**
     * Full duplex: the longest a reply is held before the final transcript of what was heard decides. Speech that
     * runs this long without a pause must bring two words of the user's: a bed of voices keeps the VAD in speech for
     * as long and the fixture recognizer hears a lone "one" in it, certain (measured in `bench duplex`: replies
     * stopped 4 s in by "one", one after another).
     */
    static final int MAX_HOLD_MILLIS = 4000;

    /**
     * No words of the user's own over the reply (a cough, a knock, what is left of the echo) or speech too quiet to be
     * theirs: the reply plays on. {@code unbroken}: the speech is still going on. Speech that ran the whole hold without a pause and brought no
     * words, or that is too quiet to be the user's, is the room (a bed of voices), not the user: nothing holds the
     * reply again until the VAD hears it stop.
     */
    private void falseInterruption(boolean unbroken) {
        holding = false;
        if (heldNearEnd.historyMillis() > 0) {
            resumedHolds.addLast(new double[] {activeMillis, heldNearEnd.floorDbfs()});
            echoLetThroughDbfs();
        }
        resetUtterance();
        host.resumeReply();
        unbrokenRoom = unbroken;
        // the VAD may still hear the room's voices when the reply ends: a turn starts where a voice stands out of them.
        // Left false, a bed that kept the VAD in speech past the reply's end made it deaf until the bed paused:
        // `bench duplex` (small office, SNR 20) left "set a timer for five minutes", 20 dB above the bed, unanswered
        speechPending = vad.inSpeech();
    }

    /**
     * Whether speech over the held reply ended before the reply had gone quiet in the room ({@value
     * #ECHO_CLEARED_MILLIS} ms), so that its level could not be set against the user's, and still brought two words of
     * the user's that the recognizer is certain of: a short barge-in ("how are you", 0.8 s) said right over the reply.
     * One certain word is not enough here: echo that the canceller let through, silent with the playback, was heard as
     * "who are you" over Parley's "how are you" (one word that Parley had not said).
     *
     * <p>Where the speech paused, "ended" means no voiced frame after the echo cleared ({@value
     * UserVoice#MIN_HELD_MILLIS} ms at most): speech the VAD still heard then and that did not stand out of the room is
     * not the user's. Session 29 counted only the frames that stood out here, and `bench duplex` (SNR 10 and 20) had
     * two replies stopped on the echo's rest so ("who are you", "thank you", certain, 0 ms of it standing out). Where a
     * bed of voices kept the VAD in speech for a second ({@code bedKeptSpeech}), it means no voice stood out of the
     * room after the echo cleared: the bed itself is voiced throughout.
     */
    private boolean endedUnheard(String certain, boolean bedKeptSpeech) {
        double heardAfterEcho = bedKeptSpeech ? userVoice.heldMillis() : heldVoicedMillis;
        return heardAfterEcho < UserVoice.MIN_HELD_MILLIS && userWordCount(certain, host.echoWords()) >= 2
                && heldInSpeech && !soonAfterBargeIn() && !heldNearEndTooSoft();
    }

    /**
     * Whether what was heard over a reply holds words of the user's own: two or more sure words that Parley was not
     * saying, or one it is certain of. Measured in a cough over the reply's residue: the fixture recognizer heard
     * "who are you" at 0.51, 0.68 and 0.87 over Parley's "how are you", one doubted word beside the echo's.
     */
    static boolean userSpoke(String sure, String certain, Set<String> echo) {
        return userWordCount(sure, echo) >= 2 || userWordCount(certain, echo) >= 1;
    }

    private static int userWordCount(String text, Set<String> echo) {
        String words = userWords(text, echo);
        return words.isEmpty() ? 0 : words.split(" ").length;
    }

    /** The words of {@code text} that are neither [unk] nor in {@code echo}. */
    static String userWords(String text, Set<String> echo) {
        StringBuilder sb = new StringBuilder();
        for (String w : text.toLowerCase(Locale.ROOT).split("\\s+")) {
            if (!w.isEmpty() && !w.equals("[unk]") && !echo.contains(w)) {
                sb.append(sb.isEmpty() ? "" : " ").append(w);
            }
        }
        return sb.toString();
    }

    /** Drops the pre-roll's oldest frames while the rest would still hold {@code max} samples (it keeps one frame). */
    private void trimPreRoll(long max) {
        while (preRoll.size() > 1 && preRollSamples - preRoll.peekFirst().frame().length() >= max) {
            preRollSamples -= preRoll.removeFirst().frame().length();
        }
    }

    private static long samples(double millis, int sampleRate) {
        return (long) (millis * sampleRate / 1000);
    }

    /** Feeds the recognizer what the pre-roll holds, oldest first, and empties it. */
    private void feedPreRoll() throws IOException {
        for (Kept k : preRoll) {
            feed(k.frame());
        }
        preRoll.clear();
        preRollSamples = 0;
    }

    /**
     * A frame held back in the pre-roll, with its short-term level (dBFS) and whether it was a voice: the VAD heard it
     * as voiced and it stood out of the room's quiet ({@link #recentStandsOut}). The onset of a turn, before the VAD's
     * start, is the user's voice too ({@link #countOnset}); the bed of voices before it is not.
     */
    private record Kept(PcmAudio frame, double levelDbfs, boolean voice) {
    }

    /**
     * A turn starts while Parley is silent: the voiced frames of its onset that the pre-roll holds (all but {@code
     * current}, counted as the turn goes on) count towards the user's level. Without them a short first question
     * taught no level: the Silero VAD starts speech after 160 ms of it, and "what time is it" left 420-480 ms voiced
     * after its start (the energy VAD, 680 ms), under {@link UserVoice#MIN_KNOWN_MILLIS}; over the first reply a bed
     * of voices 11 dB below the user was then held as theirs for 4 s, and stopped the reply when the recognizer made
     * "what is your name" of it (FullDuplexPipelineTest, in 1 of 2 runs of the whole audio suite). Only the frames that
     * stood out of the room count: in a bed of voices (bedroom, SNR 10, offline sweep) the bed's voiced frames before the
     * onset put the user's level at -45.5 dBFS where their voice was at -34, and the bed over the reply was then held as
     * theirs for 4 s and made a turn of it after the reply ("one").
     */
    private void countOnset(PcmAudio current) {
        for (Kept k : preRoll) {
            if (k.voice() && k.frame() != current) {
                userVoice.heard(k.levelDbfs(), k.frame().durationMillis());
            }
        }
    }

    private void keepPreRoll(PcmAudio frame) {
        preRoll.addLast(new Kept(frame, floor.shortTermDbfs(), vad.lastProbability() >= 0.5 && recentStandsOut()));
        preRollSamples += frame.length();
        trimPreRoll(samples(settings.preRollMillis(), frame.sampleRate()));
    }

    private void feed(PcmAudio frame) throws IOException {
        Transcript t = asr.accept(frame);
        switch (t) {
            case Transcript.Final f -> {
                appendWords(segments, f.text());
                appendWords(sureSegments, f.sure());
                appendWords(certainSegments, f.certain());
            }
            case Transcript.Partial p -> {
                String shown = segments.isEmpty() ? p.text() : (segments + " " + p.text()).strip();
                if (!shown.equals(lastPartial)) {
                    lastPartial = shown;
                    host.partial(new Transcript.Partial(shown));
                }
            }
        }
    }

    private static void appendWords(StringBuilder to, String words) {
        if (!words.isBlank()) {
            to.append(to.isEmpty() ? "" : " ").append(words);
        }
    }

    private void endTurn(long speechEnd) throws IOException {
        Transcript.Final last = asr.finish();
        long stamp = System.nanoTime();
        // over a reply only the words the recognizer is sure of count: the rest is noise or echo made into words
        String text = overReply ? (sureSegments + " " + last.sure()).strip() : (segments + " " + last.text()).strip();
        boolean echo = overReply && userWords(text, host.echoWords()).isEmpty();
        // hands-free, while Parley was silent: speech well below the user's own level that does not stand out of the
        // room's quiet is the room (a bed of voices the VAD let through), not a turn; a user who stepped back still
        // stands out of a quiet room, and a push-to-talk turn is always the user's
        // (the floor a turn begun before the room was known taught itself judges nothing of that turn)
        boolean floorKnown = !turnBegunUnknown && known(quietFloor);
        boolean tooQuiet = !userVoice.pendingIsTheUser() && floorKnown && withinTheRoom(userVoice.pendingLevelDbfs());
        boolean talking = roomTalking();
        boolean room = !overReply && settings.mode() == VoiceSettings.Mode.HANDS_FREE && (tooQuiet || unvoiced() || talking);
        if (overReply) {
            debug("turn begun over the reply: \"%s\"%s", text, echo ? ", all Parley's own words: dropped" : "");
        } else {
            debug("turn: \"%s\", voiced at %.1f dBFS for %.0f ms against the user's %.1f (of %.0f ms), the room's quiet"
                    + " at %.1f, its loud moments at %.1f, its loudest voice at %.1f%s", text, userVoice.pendingLevelDbfs(),
                    userVoice.pendingMillis(), userVoice.levelDbfs(), userVoice.knownMillis(), quietFloor.floorDbfs(),
                    quietPeaks.percentileDbfs(ROOM_PEAK_FRACTION), userVoice.pendingLoudestDbfs(LOUDEST_MILLIS), !room ? ""
                    : unvoiced() ? ": less than a word's voice stood out of the room, dropped"
                    : talking ? ": a long turn whose loudest voice stays well below the user's, the room talking, dropped"
                    : ": too quiet to be the user's, dropped");
        }
        if (!echo && !room && userVoice.pendingMillis() >= LONG_TURN_MILLIS) {
            // a long turn may be a question said into the room's talking, whose voice fills most of it
            if (userVoice.known()) {
                if (!userVoice.pendingIsTheUser()) {
                    // mostly the room's voice around the user's words: that voice is one of the room's loud moments
                    for (double[] f : turnVoiced) {
                        if (f[0] < userVoice.levelDbfs() - USER_VOICE_MARGIN_DB) {
                            quietPeaks.addLater(f[0], f[1]);
                        }
                    }
                }
                userVoice.dropped();        // the level stays as the user's earlier turns taught it
            } else {
                userVoice.keepLoudest(LOUDEST_MILLIS, LONG_TURN_USER_DB);      // the user's voice is its loudest
            }
        }
        if (!echo && !room && floorKnown) {
            userVoice.acceptedOver(quietFloor.floorDbfs(), ABOVE_FLOOR_DB);   // a first turn at the room's floor teaches nothing
        } else if (!echo && !room && userVoice.known()) {
            userVoice.accepted();
        } else {
            // begun before a second of the room's quiet was known (a bed of voices from the first moment keeps the VAD
            // in speech): nothing tells the room from the user, so a first such turn teaches no level. Measured in
            // `bench duplex` (bedroom, SNR 10): an 18 s turn at -37.5 dBFS over a quiet of -40.5 became the user's
            // level, and the bed's "nine" at -38.5 was then a turn as loud as theirs
            userVoice.dropped();
        }
        if (talking && !echo) {
            // the room talking: its voice is one of the room's loud moments, so that what it says next in less than
            // LONG_TURN_MILLIS (a sentence after a pause) stands no higher above them than its talk and is the room's too
            for (double[] f : turnVoiced) {
                quietPeaks.addLater(f[0], f[1]);
            }
        }
        boolean withdraw = room && tentativeSent;
        resetUtterance();
        if (withdraw) {
            host.tentativeWithdrawn();      // a reply was started on it speculatively
        }
        if (echo || room) {
            return;         // begun over a reply and made only of Parley's own words (its echo), or the room: no turn
        }
        host.userTurn(new Transcript.Final(text), speechEnd, stamp);
    }

    private static void debug(String format, Object... args) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, String.format(Locale.ROOT, format, args));
        }
    }

    private void resetUtterance() {
        userVoice.dropped();
        asr.reset();
        segments.setLength(0);
        sureSegments.setLength(0);
        certainSegments.setLength(0);
        heardSpeech = false;
        turnBegunUnknown = false;
        turnVoiced.clear();
        silenceMillis = 0;
        lastVoiced = -1;
        lastPartial = "";
        tentativeSent = false;
        overReply = false;
        holding = false;
        holdMillis = 0;
        heldVoicedMillis = 0;
        nearEnd.clear();
        speechPending = false;
    }
}
