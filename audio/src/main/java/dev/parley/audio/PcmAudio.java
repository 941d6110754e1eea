package dev.parley.audio;

import java.util.Arrays;
import java.util.List;

/**
 * A block of mono, signed 16-bit PCM samples at a known sample rate: the unit of audio passed
 * between Parley's capture, recognition, synthesis and playback stages.
 *
 * @param samples    the samples (not copied; treat as read-only once handed on)
 * @param sampleRate samples per second, positive
 */
public record PcmAudio(short[] samples, int sampleRate) {
    public PcmAudio {
        if (samples == null) {
            throw new IllegalArgumentException("expected PCM samples but found null");
        }
        if (sampleRate <= 0) {
            throw new IllegalArgumentException("expected a positive sample rate but found " + sampleRate);
        }
    }

    /** Number of samples. */
    public int length() {
        return samples.length;
    }

    /** Duration in milliseconds. */
    public double durationMillis() {
        return samples.length * 1000.0 / sampleRate;
    }

    /** The samples as little-endian 16-bit bytes (the layout Java Sound and WAV files use). */
    public byte[] toLittleEndianBytes() {
        byte[] out = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            out[2 * i] = (byte) samples[i];
            out[2 * i + 1] = (byte) (samples[i] >> 8);
        }
        return out;
    }

    /** Reads little-endian 16-bit samples from {@code bytes[offset, offset+length)} (length even). */
    public static PcmAudio fromLittleEndianBytes(byte[] bytes, int offset, int length, int sampleRate) {
        short[] s = new short[length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) ((bytes[offset + 2 * i] & 0xff) | (bytes[offset + 2 * i + 1] << 8));
        }
        return new PcmAudio(s, sampleRate);
    }

    /** {@code parts} one after the other, at {@code sampleRate} (each part must have it). */
    public static PcmAudio join(List<PcmAudio> parts, int sampleRate) {
        int n = 0;
        for (PcmAudio a : parts) {
            if (a.sampleRate != sampleRate) {
                throw new IllegalArgumentException("expected " + sampleRate + " Hz audio but found " + a.sampleRate
                        + " Hz");
            }
            n += a.samples.length;
        }
        short[] all = new short[n];
        int p = 0;
        for (PcmAudio a : parts) {
            System.arraycopy(a.samples, 0, all, p, a.samples.length);
            p += a.samples.length;
        }
        return new PcmAudio(all, sampleRate);
    }

    /** This audio followed by {@code other}, which must have the same sample rate. */
    public PcmAudio concat(PcmAudio other) {
        if (other.sampleRate != sampleRate) {
            throw new IllegalArgumentException("expected " + sampleRate + " Hz audio but found " + other.sampleRate + " Hz");
        }
        short[] s = Arrays.copyOf(samples, samples.length + other.samples.length);
        System.arraycopy(other.samples, 0, s, samples.length, other.samples.length);
        return new PcmAudio(s, sampleRate);
    }

    /** Samples {@code [from, to)} as a new block. */
    public PcmAudio slice(int from, int to) {
        return new PcmAudio(Arrays.copyOfRange(samples, from, to), sampleRate);
    }

    /** {@code millis} of digital silence. */
    public static PcmAudio silence(int millis, int sampleRate) {
        return new PcmAudio(new short[(int) ((long) millis * sampleRate / 1000)], sampleRate);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PcmAudio p && p.sampleRate == sampleRate && Arrays.equals(p.samples, samples);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(samples) + sampleRate;
    }

    @Override
    public String toString() {
        return "PcmAudio[" + samples.length + " samples @ " + sampleRate + " Hz]";
    }
}
