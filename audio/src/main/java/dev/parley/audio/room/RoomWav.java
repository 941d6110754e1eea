package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.capture.WavFormat;
import dev.parley.audio.capture.WavReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Impulse responses and noise beds as WAV files: written as 32-bit float mono (an impulse response's
 * tail lies far below 16-bit resolution), read from any WAV {@link WavReader} decodes. A room file
 * must be mono at {@link #ROOM_RATE} Hz; its leading zeros are the device latency.
 */
public final class RoomWav {
    /** The sample rate of room impulse responses and noise beds. */
    public static final int ROOM_RATE = 16_000;

    private RoomWav() {
    }

    /** Writes {@code samples} at {@code rate} as a 32-bit float mono WAV. */
    public static void writeFloat(Path file, float[] samples, int rate) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(44 + 4 * samples.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(36 + 4 * samples.length);
        b.put(new byte[] {'W', 'A', 'V', 'E', 'f', 'm', 't', ' '}).putInt(16).putShort((short) 3).putShort((short) 1)
                .putInt(rate).putInt(rate * 4).putShort((short) 4).putShort((short) 32);
        b.put(new byte[] {'d', 'a', 't', 'a'}).putInt(4 * samples.length);
        for (float s : samples) {
            b.putFloat(s);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, b.array());
    }

    /** Writes an impulse response. */
    public static void write(Path file, ImpulseResponse ir) throws IOException {
        writeFloat(file, ir.taps(), ir.sampleRate());
    }

    /** Reads a room impulse response: a mono WAV at {@value #ROOM_RATE} Hz, named after the file. */
    public static ImpulseResponse readRoom(Path file) throws IOException {
        WavReader.FloatWav w = WavReader.readFloat(file);
        WavFormat f = w.format();
        if (f.sampleRate() != ROOM_RATE || f.channels() != 1) {
            throw new IOException(file + ": expected a mono " + ROOM_RATE + " Hz impulse response but found " + f);
        }
        String name = file.getFileName().toString().replaceFirst("(?i)\\.wav$", "");
        try {
            return new ImpulseResponse(name, w.mono(), f.sampleRate());
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a noise bed (any rate, mixed to mono, resampled to {@value #ROOM_RATE} Hz). */
    public static float[] readNoise(Path file) throws IOException {
        WavReader.FloatWav w = WavReader.readFloat(file);
        if (w.format().sampleRate() == ROOM_RATE) {
            return w.mono();
        }
        PcmAudio pcm = Resampler.resample(new PcmAudio(Levels.toShort(w.mono()), w.format().sampleRate()), ROOM_RATE);
        return Levels.toFloat(pcm.samples());
    }
}
