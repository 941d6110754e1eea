package dev.parley.audio.capture;

/**
 * What a WAV file's {@code fmt } chunk says about its samples.
 *
 * @param encoding      integer PCM or IEEE float
 * @param sampleRate    frames per second
 * @param channels      interleaved channels per frame
 * @param bitsPerSample 8 (unsigned), 16, 24 or 32 for PCM; 32 or 64 for float
 */
public record WavFormat(Encoding encoding, int sampleRate, int channels, int bitsPerSample) {
    /** Sample encodings Parley decodes. */
    public enum Encoding { PCM, FLOAT }

    /** Bytes per interleaved frame. */
    public int frameBytes() {
        return channels * (bitsPerSample / 8);
    }

    @Override
    public String toString() {
        return encoding + " " + bitsPerSample + "-bit " + channels + "-channel " + sampleRate + " Hz";
    }
}
