package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Audio from a WAV file: any uncompressed WAV ({@link WavReader}) mixed to mono, 8-bit widened to
 * 16-bit, and resampled ({@link Resampler}, windowed sinc) to the wanted rate, then served in
 * frames of a fixed duration. Not paced: frames come as fast as they are read.
 */
public final class WavFileSource implements AudioSource {
    /** The rate speech recognition wants. */
    public static final int DEFAULT_RATE = 16_000;

    private final PcmAudio audio;
    private final int frameSamples;
    private int position;
    private volatile boolean closed;

    /** Serves {@code audio} in frames of {@code frameMillis}. */
    public WavFileSource(PcmAudio audio, int frameMillis) {
        if (frameMillis <= 0) {
            throw new IllegalArgumentException("expected a positive frame duration but found " + frameMillis + " ms");
        }
        this.audio = audio;
        this.frameSamples = Math.max(1, audio.sampleRate() * frameMillis / 1000);
    }

    /** Opens {@code file} converted to 16 kHz mono, in 20 ms frames. */
    public static WavFileSource open(Path file) throws IOException {
        return new WavFileSource(load(file, DEFAULT_RATE), 20);
    }

    /** Reads {@code file} whole, converted to mono 16-bit at {@code sampleRate}. */
    public static PcmAudio load(Path file, int sampleRate) throws IOException {
        return Resampler.resample(WavReader.read(file).mono(), sampleRate);
    }

    /** The whole converted audio. */
    public PcmAudio audio() {
        return audio;
    }

    @Override
    public int sampleRate() {
        return audio.sampleRate();
    }

    @Override
    public synchronized PcmAudio read() {
        if (closed || position >= audio.length()) {
            return null;
        }
        int end = Math.min(audio.length(), position + frameSamples);
        PcmAudio frame = audio.slice(position, end);
        position = end;
        return frame;
    }

    @Override
    public void close() {
        closed = true;
    }
}
