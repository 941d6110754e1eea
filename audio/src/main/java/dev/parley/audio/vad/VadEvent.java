package dev.parley.audio.vad;

/** What one frame fed to a {@link VoiceActivityDetector} changed. */
public enum VadEvent { NONE, SPEECH_START, SPEECH_END }
