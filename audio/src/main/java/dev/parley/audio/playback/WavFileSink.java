package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * An {@link AudioSink} that writes a 16-bit mono WAV file (for {@code parley say --out}). Audio is
 * written at once, unpaced, and resampled to the file's rate if needed; markers run at once;
 * {@link #stopNow()} cannot take back what was written. The {@link PlaybackTap} hears each piece as it is
 * written (unpaced: a whole reply at once). The header is completed on close.
 */
public final class WavFileSink implements AudioSink {
    private final RandomAccessFile file;
    private final int sampleRate;
    private Resampler resampler;
    private long samples;
    private volatile PlaybackTap tap = PlaybackTap.NONE;

    public WavFileSink(Path path, int sampleRate) throws IOException {
        this.sampleRate = sampleRate;
        this.file = new RandomAccessFile(path.toFile(), "rw");
        file.setLength(0);
        file.write(WavWriter.header(sampleRate, 0));
    }

    @Override
    public synchronized void play(PcmAudio audio) {
        PcmAudio a = audio;
        if (a.sampleRate() != sampleRate) {
            if (resampler == null || resampler.inRate() != a.sampleRate()) {
                resampler = new Resampler(a.sampleRate(), sampleRate);
            }
            a = new PcmAudio(resampler.process(a.samples(), 0, a.length()), sampleRate);
        }
        try {
            file.write(a.toLittleEndianBytes());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write the WAV file: " + e.getMessage(), e);
        }
        samples += a.length();
        tap.played(a);
    }

    @Override
    public void tap(PlaybackTap tap) {
        this.tap = tap == null ? PlaybackTap.NONE : tap;
    }

    @Override
    public void mark(Runnable callback) {
        callback.run();
    }

    @Override
    public void stopNow() {
        // already written
    }

    @Override
    public boolean isPlaying() {
        return false;
    }

    @Override
    public synchronized long samplesWritten() {
        return samples;
    }

    @Override
    public synchronized void close() throws IOException {
        if (resampler != null) {
            short[] tail = resampler.flush();
            file.write(new PcmAudio(tail, sampleRate).toLittleEndianBytes());
            samples += tail.length;
        }
        file.seek(0);
        file.write(WavWriter.header(sampleRate, samples * 2));
        file.close();
    }
}
