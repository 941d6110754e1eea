package dev.parley.audio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Wall-clock stamps ({@link System#nanoTime()}) of one voice turn's stages; -1 marks a stage the
 * turn never reached (e.g. interrupted before any audio).
 *
 * @param turn              turn number, from 1
 * @param speechEnd         the last voiced audio frame of the user's utterance arrived
 * @param finalTranscript   the recognizer returned the final text
 * @param firstText         the responder produced its first text piece
 * @param firstSentence     the first sentence (or clause) was ready for synthesis
 * @param firstAudio        the first synthesized sample was handed to the device
 * @param lastSample        the last sample was played out (or playback was stopped)
 * @param interrupted       the user barged in
 */
public record TurnLatency(long turn, long speechEnd, long finalTranscript, long firstText, long firstSentence,
                          long firstAudio, long lastSample, boolean interrupted) {
    /** The stages in pipeline order, with names. */
    public enum Stage { SPEECH_END, FINAL_TRANSCRIPT, FIRST_TEXT, FIRST_SENTENCE, FIRST_AUDIO, LAST_SAMPLE }

    /** The stamps in {@link Stage} order. */
    public long[] stamps() {
        return new long[] {speechEnd, finalTranscript, firstText, firstSentence, firstAudio, lastSample};
    }

    /** Whether every stage was reached. */
    public boolean complete() {
        for (long s : stamps()) {
            if (s < 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the stages that were reached are in non-decreasing time order. */
    public boolean ordered() {
        long prev = Long.MIN_VALUE;
        for (long s : stamps()) {
            if (s >= 0) {
                if (s < prev) {
                    return false;
                }
                prev = s;
            }
        }
        return true;
    }

    /** Milliseconds from speech end to {@code stage}, or NaN if either was not reached. */
    public double millisAfterSpeechEnd(Stage stage) {
        long s = stamps()[stage.ordinal()];
        return s < 0 || speechEnd < 0 ? Double.NaN : (s - speechEnd) / 1e6;
    }

    /** One line for logs: each stage's time after speech end. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        for (Stage st : Stage.values()) {
            double ms = millisAfterSpeechEnd(st);
            parts.add(st.name().toLowerCase(Locale.ROOT) + "=" + (Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.0fms", ms)));
        }
        return "turn " + turn + (interrupted ? " (interrupted)" : "") + ": " + String.join(" ", parts);
    }
}
