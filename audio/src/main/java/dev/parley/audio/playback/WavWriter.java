package dev.parley.audio.playback;

import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes 16-bit mono PCM WAV files. */
public final class WavWriter {
    private WavWriter() {
    }

    /** The canonical 44-byte header for {@code dataBytes} of 16-bit mono PCM at {@code rate}. */
    public static byte[] header(int rate, long dataBytes) {
        ByteBuffer b = ByteBuffer.allocate(44).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'R', 'I', 'F', 'F'}).putInt((int) Math.min(0xffffffffL, 36 + dataBytes));
        b.put(new byte[] {'W', 'A', 'V', 'E', 'f', 'm', 't', ' '}).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(rate).putInt(rate * 2).putShort((short) 2).putShort((short) 16);
        b.put(new byte[] {'d', 'a', 't', 'a'}).putInt((int) Math.min(0xffffffffL, dataBytes));
        return b.array();
    }

    /** Writes {@code audio} to {@code file}. */
    public static void write(Path file, PcmAudio audio) throws IOException {
        byte[] data = audio.toLittleEndianBytes();
        byte[] all = new byte[44 + data.length];
        System.arraycopy(header(audio.sampleRate(), data.length), 0, all, 0, 44);
        System.arraycopy(data, 0, all, 44, data.length);
        Files.write(file, all);
    }
}
