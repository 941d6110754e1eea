package dev.parley.audio.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.TestWavs;
import dev.parley.audio.asr.VoskRecognizer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad and unusual WAV input: converted (and still recognized) or refused with a clear message. */
class WavReaderTest {
    private static VoskRecognizer vosk;
    private static short[] speech16k;

    @BeforeAll
    static void load() throws IOException {
        vosk = VoskRecognizer.load(SharedFixtures.require("vosk/model-assistant"));
        speech16k = WavReader.read(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav")).mono().samples();
    }

    @AfterAll
    static void close() {
        if (vosk != null) {
            vosk.close();
        }
    }

    @Test
    void stereoIsMixedToMonoAndStillRecognized(@TempDir Path dir) throws IOException {
        Path f = TestWavs.write(dir.resolve("stereo.wav"), speech16k, 16_000, 2, 16);
        WavReader.WavData d = WavReader.read(f);
        assertEquals(2, d.format().channels());
        assertEquals(speech16k.length, d.mono().length());
        // the mix of s and 0.8 s is 0.9 s
        int i = argMaxAbs(speech16k);
        assertEquals(0.9 * speech16k[i], d.mono().samples()[i], 1.0);
        assertEquals("what time is it", vosk.transcribe(WavFileSource.load(f, 16_000)).text());
    }

    @Test
    void eightBitIsWidenedAndStillRecognized(@TempDir Path dir) throws IOException {
        Path f = TestWavs.write(dir.resolve("u8.wav"), speech16k, 16_000, 1, 8);
        WavReader.WavData d = WavReader.read(f);
        assertEquals(8, d.format().bitsPerSample());
        int i = argMaxAbs(speech16k);
        assertEquals(speech16k[i], d.mono().samples()[i], 256.0);
        assertEquals("what time is it", vosk.transcribe(WavFileSource.load(f, 16_000)).text());
    }

    @Test
    void rate44100IsResampledAndStillRecognized(@TempDir Path dir) throws IOException {
        PcmAudio up = Resampler.resample(new PcmAudio(speech16k, 16_000), 44_100);
        Path f = TestWavs.write(dir.resolve("44k.wav"), up.samples(), 44_100, 2, 16);
        PcmAudio back = WavFileSource.load(f, 16_000);
        assertEquals(speech16k.length, back.length(), 1.0);
        assertEquals("what time is it", vosk.transcribe(back).text());
    }

    @Test
    void emptyFileIsRefused(@TempDir Path dir) throws IOException {
        Path f = Files.write(dir.resolve("empty.wav"), new byte[0]);
        IOException e = assertThrows(IOException.class, () -> WavFileSource.open(f));
        assertTrue(e.getMessage().contains("expected a RIFF/WAVE file but found an empty file"), e.getMessage());
    }

    @Test
    void wavWithoutSamplesIsRefused(@TempDir Path dir) throws IOException {
        Path f = TestWavs.write(dir.resolve("nodata.wav"), new short[0], 16_000, 1, 16);
        IOException e = assertThrows(IOException.class, () -> WavFileSource.open(f));
        assertTrue(e.getMessage().contains("expected audio samples but found an empty 'data' chunk"), e.getMessage());
    }

    @Test
    void nonWavIsRefused(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("notes.wav"), "ID3 this is really an mp3 or a text file");
        IOException e = assertThrows(IOException.class, () -> WavFileSource.open(f));
        assertTrue(e.getMessage().contains("expected a RIFF/WAVE file") && e.getMessage().contains("found 'ID3 "), e.getMessage());
    }

    @Test
    void compressedWavIsRefused(@TempDir Path dir) throws IOException {
        byte[] wav = TestWavs.encode(speech16k, 16_000, 1, 16);
        ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN).putShort(20, (short) 0x11);   // IMA ADPCM tag
        Path f = Files.write(dir.resolve("adpcm.wav"), wav);
        IOException e = assertThrows(IOException.class, () -> WavFileSource.open(f));
        assertTrue(e.getMessage().contains("expected uncompressed PCM or float samples but found IMA ADPCM"), e.getMessage());
    }

    @Test
    void missingFileIsRefused(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class, () -> WavFileSource.open(dir.resolve("missing.wav")));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    private static int argMaxAbs(short[] s) {
        int best = 0;
        for (int i = 1; i < s.length; i++) {
            if (Math.abs(s[i]) > Math.abs(s[best])) {
                best = i;
            }
        }
        return best;
    }
}
