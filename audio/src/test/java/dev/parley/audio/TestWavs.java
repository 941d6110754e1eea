package dev.parley.audio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes WAV variants (channels, bit depth, rate) for tests, with the test's own encoder. */
public final class TestWavs {
    private TestWavs() {
    }

    /** Encodes {@code channels} copies of {@code mono} as a PCM WAV with {@code bits} per sample. */
    public static byte[] encode(short[] mono, int rate, int channels, int bits) {
        int bps = bits / 8;
        int dataLen = mono.length * channels * bps;
        ByteBuffer b = ByteBuffer.allocate(44 + dataLen).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + dataLen).put("WAVE".getBytes());
        b.put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) channels).putInt(rate)
                .putInt(rate * channels * bps).putShort((short) (channels * bps)).putShort((short) bits);
        b.put("data".getBytes()).putInt(dataLen);
        for (short s : mono) {
            for (int c = 0; c < channels; c++) {
                // right channel slightly quieter so the mix-down is really averaging two signals
                int v = c == 0 ? s : (int) (s * 0.8);
                if (bits == 8) {
                    b.put((byte) ((v >> 8) + 128));
                } else {
                    b.putShort((short) v);
                }
            }
        }
        return b.array();
    }

    public static Path write(Path file, short[] mono, int rate, int channels, int bits) throws IOException {
        Files.write(file, encode(mono, rate, channels, bits));
        return file;
    }
}
