package dev.parley.audio;

/**
 * How often a {@link VoicePipeline} replied speculatively (see {@link VoiceSettings#speculateAfterMillis()}).
 *
 * @param started   replies started before the end-of-turn silence was over
 * @param confirmed those whose final transcript matched the words they were started on, so they were heard;
 *                  the others were cancelled unheard and retracted
 */
public record Speculation(long started, long confirmed) {
}
