package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads RIFF/WAVE files with uncompressed samples (integer PCM 8/16/24/32-bit, IEEE float 32/64-bit,
 * also inside WAVE_FORMAT_EXTENSIBLE) and mixes them down to 16-bit mono. Everything else (empty
 * files, other formats, compressed WAV such as ADPCM, mu-law or MP3) is refused with an
 * {@link IOException} that says what was expected and what was found.
 */
public final class WavReader {
    private static final int TAG_PCM = 1;
    private static final int TAG_FLOAT = 3;
    private static final int TAG_EXTENSIBLE = 0xFFFE;

    /** The largest file {@link #read} accepts: 1 GiB (about 9 hours of 16-bit mono at 16 kHz). */
    public static final long MAX_FILE_BYTES = 1L << 30;

    private WavReader() {
    }

    /** A decoded file: its original format and its samples mixed to mono at the original rate. */
    public record WavData(WavFormat format, PcmAudio mono) {
    }

    /** Reads and decodes {@code file}. */
    public static WavData read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("expected a WAV file at " + file + " but found no such file");
        }
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new IOException(file + ": expected a WAV file of at most " + (MAX_FILE_BYTES >> 20) + " MiB but found "
                    + size + " bytes; split it or convert it to 16 kHz mono first");
        }
        byte[] bytes = Files.readAllBytes(file);
        return decode(bytes, file.toString());
    }

    /** Decodes WAV bytes; {@code name} appears in error messages. */
    public static WavData decode(byte[] bytes, String name) throws IOException {
        Located at = locate(bytes, name);
        return new WavData(at.format, new PcmAudio(mixToMono(at.bb, at.offset, at.frames, at.format), at.format.sampleRate()));
    }

    /** A decoded file with its samples mixed to mono as floats in [-1, 1), without 16-bit rounding. */
    public record FloatWav(WavFormat format, float[] mono) {
    }

    /** Reads {@code file} keeping full precision (impulse responses, float WAVs). */
    public static FloatWav readFloat(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("expected a WAV file at " + file + " but found no such file");
        }
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new IOException(file + ": expected a WAV file of at most " + (MAX_FILE_BYTES >> 20) + " MiB but found "
                    + size + " bytes");
        }
        Located at = locate(Files.readAllBytes(file), file.toString());
        WavFormat f = at.format;
        float[] out = new float[at.frames];
        int bytesPerSample = f.bitsPerSample() / 8;
        int p = at.offset;
        for (int i = 0; i < at.frames; i++) {
            double sum = 0;
            for (int c = 0; c < f.channels(); c++) {
                sum += sample(at.bb, p, f, bytesPerSample);
                p += bytesPerSample;
            }
            out[i] = (float) (sum / f.channels());
        }
        return new FloatWav(f, out);
    }

    private record Located(ByteBuffer bb, WavFormat format, int offset, int frames) {
    }

    private static Located locate(byte[] bytes, String name) throws IOException {
        if (bytes.length == 0) {
            throw new IOException(name + ": expected a RIFF/WAVE file but found an empty file (0 bytes)");
        }
        if (bytes.length < 12 || !ascii(bytes, 0, 4).equals("RIFF") || !ascii(bytes, 8, 4).equals("WAVE")) {
            String found = bytes.length < 12 ? bytes.length + " bytes" : "'" + printable(bytes, 0, 4) + "..." + printable(bytes, 8, 4) + "'";
            throw new IOException(name + ": expected a RIFF/WAVE file (\"RIFF....WAVE\") but found " + found);
        }
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        WavFormat format = null;
        int dataOffset = -1;
        int dataLength = 0;
        int pos = 12;
        while (pos + 8 <= bytes.length) {
            String id = ascii(bytes, pos, 4);
            long size = bb.getInt(pos + 4) & 0xffffffffL;
            int body = pos + 8;
            if (id.equals("fmt ")) {
                format = parseFormat(bb, body, (int) Math.min(size, bytes.length - body), name);
            } else if (id.equals("data")) {
                dataOffset = body;
                dataLength = (int) Math.min(size, bytes.length - body);   // streaming writers leave size unset
                break;
            }
            pos = (int) Math.min(bytes.length, body + size + (size & 1));
        }
        if (format == null) {
            throw new IOException(name + ": expected a 'fmt ' chunk before the audio data but found none");
        }
        if (dataOffset < 0) {
            throw new IOException(name + ": expected a 'data' chunk with audio samples but found none");
        }
        int frames = dataLength / format.frameBytes();
        if (frames == 0) {
            throw new IOException(name + ": expected audio samples but found an empty 'data' chunk (" + format + ")");
        }
        return new Located(bb, format, dataOffset, frames);
    }

    private static WavFormat parseFormat(ByteBuffer bb, int at, int size, String name) throws IOException {
        if (size < 16) {
            throw new IOException(name + ": expected a 'fmt ' chunk of at least 16 bytes but found " + size);
        }
        int tag = bb.getShort(at) & 0xffff;
        int channels = bb.getShort(at + 2) & 0xffff;
        int rate = bb.getInt(at + 4);
        int bits = bb.getShort(at + 14) & 0xffff;
        if (tag == TAG_EXTENSIBLE) {
            if (size < 40) {
                throw new IOException(name + ": expected a 40-byte WAVE_FORMAT_EXTENSIBLE 'fmt ' chunk but found " + size + " bytes");
            }
            tag = bb.getShort(at + 24) & 0xffff;   // first two bytes of the sub-format GUID
        }
        WavFormat.Encoding encoding = switch (tag) {
            case TAG_PCM -> WavFormat.Encoding.PCM;
            case TAG_FLOAT -> WavFormat.Encoding.FLOAT;
            default -> throw new IOException(name + ": expected uncompressed PCM or float samples but found "
                    + describeTag(tag) + " (format tag 0x" + Integer.toHexString(tag) + "); convert it to PCM WAV first");
        };
        boolean bitsOk = encoding == WavFormat.Encoding.PCM
                ? bits == 8 || bits == 16 || bits == 24 || bits == 32
                : bits == 32 || bits == 64;
        if (!bitsOk) {
            throw new IOException(name + ": expected " + (encoding == WavFormat.Encoding.PCM ? "8, 16, 24 or 32" : "32 or 64")
                    + "-bit " + encoding + " samples but found " + bits + "-bit");
        }
        if (channels < 1) {
            throw new IOException(name + ": expected at least one channel but found " + channels);
        }
        if (rate < 1000 || rate > 768_000) {
            throw new IOException(name + ": expected a sample rate between 1000 and 768000 Hz but found " + rate);
        }
        return new WavFormat(encoding, rate, channels, bits);
    }

    private static short[] mixToMono(ByteBuffer bb, int offset, int frames, WavFormat f) {
        short[] out = new short[frames];
        int bytesPerSample = f.bitsPerSample() / 8;
        int p = offset;
        for (int i = 0; i < frames; i++) {
            double sum = 0;
            for (int c = 0; c < f.channels(); c++) {
                sum += sample(bb, p, f, bytesPerSample);
                p += bytesPerSample;
            }
            double v = sum / f.channels() * 32768.0;
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
        }
        return out;
    }

    /** One sample scaled to [-1, 1). */
    private static double sample(ByteBuffer bb, int p, WavFormat f, int bytes) {
        if (f.encoding() == WavFormat.Encoding.FLOAT) {
            return bytes == 4 ? bb.getFloat(p) : bb.getDouble(p);
        }
        return switch (bytes) {
            case 1 -> ((bb.get(p) & 0xff) - 128) / 128.0;     // 8-bit WAV is unsigned
            case 2 -> bb.getShort(p) / 32768.0;
            case 3 -> ((bb.get(p) & 0xff) | ((bb.get(p + 1) & 0xff) << 8) | (bb.get(p + 2) << 16)) / 8388608.0;
            default -> bb.getInt(p) / 2147483648.0;
        };
    }

    private static String describeTag(int tag) {
        return switch (tag) {
            case 2 -> "Microsoft ADPCM";
            case 6 -> "A-law";
            case 7 -> "mu-law";
            case 0x11 -> "IMA ADPCM";
            case 0x31 -> "GSM 6.10";
            case 0x50 -> "MPEG";
            case 0x55 -> "MP3";
            default -> "a compressed or unknown encoding";
        };
    }

    private static String ascii(byte[] b, int at, int n) {
        return new String(b, at, Math.min(n, b.length - at), StandardCharsets.ISO_8859_1);
    }

    private static String printable(byte[] b, int at, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = at; i < Math.min(b.length, at + n); i++) {
            int c = b[i] & 0xff;
            sb.append(c >= 32 && c < 127 ? Character.toString(c) : String.format("\\x%02x", c));
        }
        return sb.toString();
    }
}
