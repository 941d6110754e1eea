package dev.parley.audio;

import dev.parley.audio.text.SentenceSplitter;
import dev.parley.audio.vad.VadSettings;

/**
 * Settings of a {@link VoicePipeline}.
 *
 * @param mode                  hands-free (voice activity ends turns) or push-to-talk
 * @param endOfTurnSilenceMillis silence after speech that ends the user's turn in hands-free mode
 * @param vad                   voice activity detection thresholds (barge-in, end of turn)
 * @param halfDuplex            while Parley talks, captured audio is only watched for barge-in and
 *                              not transcribed (there is no echo cancellation yet)
 * @param preRollMillis         audio kept from before speech (or a barge-in) was confirmed, replayed to the
 *                              recognizer, which hears nothing before speech starts in hands-free mode
 * @param clauseMinChars        clause length after which a comma may end a piece sent to synthesis
 * @param queueCapacity         capacity of each bounded queue between stages
 */
public record VoiceSettings(Mode mode, int endOfTurnSilenceMillis, VadSettings vad, boolean halfDuplex,
                            int preRollMillis, int clauseMinChars, int queueCapacity) {
    /** How the user's turn is delimited. */
    public enum Mode { HANDS_FREE, PUSH_TO_TALK }

    public VoiceSettings {
        if (mode == null || vad == null) {
            throw new IllegalArgumentException("expected a mode and VAD settings but found null");
        }
        if (endOfTurnSilenceMillis < 100 || endOfTurnSilenceMillis > 10_000) {
            throw new IllegalArgumentException("expected an end-of-turn silence of 100..10000 ms but found " + endOfTurnSilenceMillis);
        }
        if (preRollMillis < 0 || clauseMinChars < 1 || queueCapacity < 1) {
            throw new IllegalArgumentException("expected non-negative pre-roll and positive clause length and queue capacity but found "
                    + preRollMillis + ", " + clauseMinChars + ", " + queueCapacity);
        }
    }

    /** Hands-free, 600 ms end-of-turn silence, half-duplex. */
    public static VoiceSettings defaults() {
        return new VoiceSettings(Mode.HANDS_FREE, 600, VadSettings.defaults(), true, 500,
                SentenceSplitter.DEFAULT_CLAUSE_MIN_CHARS, 64);
    }

    public VoiceSettings withMode(Mode m) {
        return new VoiceSettings(m, endOfTurnSilenceMillis, vad, halfDuplex, preRollMillis, clauseMinChars, queueCapacity);
    }

    public VoiceSettings withEndOfTurnSilence(int millis) {
        return new VoiceSettings(mode, millis, vad, halfDuplex, preRollMillis, clauseMinChars, queueCapacity);
    }
}
