package dev.parley.audio.vad;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;

/**
 * Frame-by-frame energy voice-activity detector with hysteresis (see {@link VadSettings}); used
 * for barge-in and end-of-turn timing. Time is counted in samples, not wall-clock, so it works the
 * same on live and file input. Not thread-safe.
 */
public final class EnergyVad {
    /** What a frame changed. */
    public enum Event { NONE, SPEECH_START, SPEECH_END }

    private final VadSettings settings;
    private boolean inSpeech;
    private double candidateMillis;
    private double silenceMillis;
    private double lastLevel = LevelMeter.SILENCE_DBFS;

    public EnergyVad(VadSettings settings) {
        this.settings = settings;
    }

    /** Feeds one frame and says whether speech started or ended with it. */
    public Event process(PcmAudio frame) {
        double level = LevelMeter.rmsDbfs(frame);
        lastLevel = level;
        double ms = frame.durationMillis();
        if (!inSpeech) {
            if (level >= settings.startDbfs()) {
                candidateMillis += ms;
                if (candidateMillis >= settings.minSpeechMillis()) {
                    inSpeech = true;
                    silenceMillis = 0;
                    return Event.SPEECH_START;
                }
            } else {
                candidateMillis = 0;
            }
            return Event.NONE;
        }
        if (level >= settings.stopDbfs()) {
            silenceMillis = 0;
        } else {
            silenceMillis += ms;
            if (silenceMillis >= settings.hangoverMillis()) {
                inSpeech = false;
                candidateMillis = 0;
                return Event.SPEECH_END;
            }
        }
        return Event.NONE;
    }

    /** Whether the last frame counted as voiced (at or above the stop threshold while in speech, or the start threshold). */
    public boolean lastFrameVoiced() {
        return lastLevel >= (inSpeech ? settings.stopDbfs() : settings.startDbfs());
    }

    /** Whether speech is in progress. */
    public boolean inSpeech() {
        return inSpeech;
    }

    /** Level of the last frame in dBFS. */
    public double lastLevelDbfs() {
        return lastLevel;
    }

    /** Forgets the current state. */
    public void reset() {
        inSpeech = false;
        candidateMillis = 0;
        silenceMillis = 0;
    }
}
