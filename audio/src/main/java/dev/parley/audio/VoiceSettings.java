package dev.parley.audio;

import dev.parley.audio.text.SentenceSplitter;
import dev.parley.audio.vad.VadSettings;

/**
 * Settings of a {@link VoicePipeline}.
 *
 * @param mode                  hands-free (voice activity ends turns) or push-to-talk
 * @param endOfTurnSilenceMillis silence after speech that ends the user's turn in hands-free mode
 * @param vad                   voice activity detection thresholds (barge-in, end of turn)
 * @param halfDuplex            while Parley talks, captured audio is only watched for barge-in and not
 *                              transcribed; when false the loop is full duplex wherever the audio front end cancels
 *                              echo (and half-duplex where it cannot)
 * @param preRollMillis         audio kept from before speech (or a barge-in) was confirmed, replayed to the
 *                              recognizer, which hears nothing before speech starts in hands-free mode
 * @param firstClauseMinChars   the same for the first piece of a reply (what the listener waits for); without
 *                              punctuation it is cut at a space by twice this length
 * @param clauseMinChars        clause length after which a comma may end a later piece sent to synthesis
 * @param queueCapacity         capacity of each bounded queue between stages
 * @param speculateAfterMillis  hands-free: after this much silence the reply starts speculatively on the live
 *                              transcript, unheard until the end-of-turn silence confirms it (the user speaking
 *                              again withdraws it); only with a {@link Responder} that can retract; 0 = off
 * @param falseInterruptionMillis full duplex: the reply is held when the VAD hears speech over it, stopped when the
 *                              recognizer hears words, and resumed after this much silence with no words (a cough)
 * @param listeningCue          full duplex: play the {@link dev.parley.audio.playback.ListeningCue} when listening
 *                              starts, so that the echo canceller knows the room before the first reply
 */
public record VoiceSettings(Mode mode, int endOfTurnSilenceMillis, VadSettings vad, boolean halfDuplex,
                            int preRollMillis, int firstClauseMinChars, int clauseMinChars, int queueCapacity,
                            int speculateAfterMillis, int falseInterruptionMillis, boolean listeningCue) {
    /** The default end-of-turn silence (see docs/audio.md for why this value). */
    public static final int DEFAULT_END_OF_TURN_SILENCE_MILLIS = 600;
    /** The default silence after which a reply starts speculatively (see docs/audio.md). */
    public static final int DEFAULT_SPECULATE_AFTER_MILLIS = 250;
    /** The default silence after a wordless interruption before the held reply resumes (see docs/audio.md). */
    public static final int DEFAULT_FALSE_INTERRUPTION_MILLIS = 400;

    /** How the user's turn is delimited. */
    public enum Mode { HANDS_FREE, PUSH_TO_TALK }

    public VoiceSettings {
        if (mode == null || vad == null) {
            throw new IllegalArgumentException("expected a mode and VAD settings but found null");
        }
        if (endOfTurnSilenceMillis < 100 || endOfTurnSilenceMillis > 10_000) {
            throw new IllegalArgumentException("expected an end-of-turn silence of 100..10000 ms but found " + endOfTurnSilenceMillis);
        }
        if (preRollMillis < 0 || firstClauseMinChars < 1 || clauseMinChars < 1 || queueCapacity < 1) {
            throw new IllegalArgumentException("expected non-negative pre-roll and positive clause lengths and queue capacity but found "
                    + preRollMillis + ", " + firstClauseMinChars + ", " + clauseMinChars + ", " + queueCapacity);
        }
        if (speculateAfterMillis < 0 || speculateAfterMillis > 10_000) {
            throw new IllegalArgumentException("expected a speculation silence of 0 (off) to 10000 ms but found "
                    + speculateAfterMillis);
        }
        if (falseInterruptionMillis < 50 || falseInterruptionMillis > 10_000) {
            throw new IllegalArgumentException("expected a false-interruption silence of 50..10000 ms but found "
                    + falseInterruptionMillis);
        }
    }

    /**
     * Hands-free, 600 ms end-of-turn silence, speculative replies after 250 ms, full duplex where echo is cancelled
     * (half-duplex elsewhere), a held reply resumes after 400 ms without words, the listening cue on.
     */
    public static VoiceSettings defaults() {
        return new VoiceSettings(Mode.HANDS_FREE, DEFAULT_END_OF_TURN_SILENCE_MILLIS, VadSettings.defaults(), false, 500,
                SentenceSplitter.DEFAULT_FIRST_CLAUSE_MIN_CHARS, SentenceSplitter.DEFAULT_CLAUSE_MIN_CHARS, 64,
                DEFAULT_SPECULATE_AFTER_MILLIS, DEFAULT_FALSE_INTERRUPTION_MILLIS, true);
    }

    /** Half-duplex even where echo is cancelled (true), or full duplex wherever it is (false). */
    public VoiceSettings withHalfDuplex(boolean on) {
        return new VoiceSettings(mode, endOfTurnSilenceMillis, vad, on, preRollMillis, firstClauseMinChars,
                clauseMinChars, queueCapacity, speculateAfterMillis, falseInterruptionMillis, listeningCue);
    }

    /** With this silence after a wordless interruption before the held reply resumes. */
    public VoiceSettings withFalseInterruption(int millis) {
        return new VoiceSettings(mode, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, firstClauseMinChars,
                clauseMinChars, queueCapacity, speculateAfterMillis, millis, listeningCue);
    }

    public VoiceSettings withMode(Mode m) {
        return new VoiceSettings(m, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, firstClauseMinChars,
                clauseMinChars, queueCapacity, speculateAfterMillis, falseInterruptionMillis, listeningCue);
    }

    public VoiceSettings withEndOfTurnSilence(int millis) {
        return new VoiceSettings(mode, millis, vad, halfDuplex, preRollMillis, firstClauseMinChars, clauseMinChars,
                queueCapacity, speculateAfterMillis, falseInterruptionMillis, listeningCue);
    }

    /** With these clause lengths for the first and the later pieces sent to synthesis. */
    public VoiceSettings withClauses(int firstMinChars, int laterMinChars) {
        return new VoiceSettings(mode, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, firstMinChars,
                laterMinChars, queueCapacity, speculateAfterMillis, falseInterruptionMillis, listeningCue);
    }

    /** With speculative replies after {@code millis} of silence (0 = off). */
    public VoiceSettings withSpeculation(int millis) {
        return new VoiceSettings(mode, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, firstClauseMinChars,
                clauseMinChars, queueCapacity, millis, falseInterruptionMillis, listeningCue);
    }

    /** With or without the listening cue when full-duplex listening starts. */
    public VoiceSettings withListeningCue(boolean on) {
        return new VoiceSettings(mode, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, firstClauseMinChars,
                clauseMinChars, queueCapacity, speculateAfterMillis, falseInterruptionMillis, on);
    }
}
