package dev.parley.audio.vad;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;

/**
 * Frame-by-frame energy voice-activity detector with hysteresis (see {@link VadSettings}); used
 * for barge-in and end-of-turn timing. Time is counted in samples, not wall-clock, so it works the
 * same on live and file input. Not thread-safe.
 */
public final class EnergyVad implements VoiceActivityDetector {
    private final VadSettings settings;
    private boolean inSpeech;
    private double candidateMillis;
    private double silenceMillis;
    private double lastLevel = LevelMeter.SILENCE_DBFS;

    public EnergyVad(VadSettings settings) {
        this.settings = settings;
    }

    @Override
    public VadEvent process(PcmAudio frame) {
        double level = LevelMeter.rmsDbfs(frame);
        lastLevel = level;
        double ms = frame.durationMillis();
        if (!inSpeech) {
            if (level >= settings.startDbfs()) {
                candidateMillis += ms;
                if (candidateMillis >= settings.minSpeechMillis()) {
                    inSpeech = true;
                    silenceMillis = 0;
                    return VadEvent.SPEECH_START;
                }
            } else {
                candidateMillis = 0;
            }
            return VadEvent.NONE;
        }
        if (level >= settings.stopDbfs()) {
            silenceMillis = 0;
        } else {
            silenceMillis += ms;
            if (silenceMillis >= settings.hangoverMillis()) {
                inSpeech = false;
                candidateMillis = 0;
                return VadEvent.SPEECH_END;
            }
        }
        return VadEvent.NONE;
    }

    /** Whether the last frame counted as voiced (at or above the stop threshold while in speech, or the start threshold). */
    public boolean lastFrameVoiced() {
        return lastLevel >= (inSpeech ? settings.stopDbfs() : settings.startDbfs());
    }

    @Override
    public boolean inSpeech() {
        return inSpeech;
    }

    /** 1 while the last frame counted as voiced, else 0: an energy detector has no finer judgement. */
    @Override
    public double lastProbability() {
        return lastFrameVoiced() ? 1 : 0;
    }

    @Override
    public String name() {
        return "energy";
    }

    /** Level of the last frame in dBFS. */
    public double lastLevelDbfs() {
        return lastLevel;
    }

    @Override
    public void reset() {
        inSpeech = false;
        candidateMillis = 0;
        silenceMillis = 0;
    }
}
