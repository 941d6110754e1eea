package dev.parley.audio.playback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.WavReader;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WavFileSinkTest {
    @Test
    void writesAReadableWavAndResamplesOtherRates(@TempDir Path dir) throws Exception {
        short[] ramp = new short[4800];
        for (int i = 0; i < ramp.length; i++) {
            ramp[i] = (short) (i * 5 - 12000);
        }
        Path f = dir.resolve("out.wav");
        AtomicBoolean marked = new AtomicBoolean();
        try (WavFileSink sink = new WavFileSink(f, 48_000)) {
            sink.play(new PcmAudio(ramp, 48_000));
            sink.play(PcmAudio.silence(100, 16_000));       // resampled to 48 kHz: 4800 samples
            sink.mark(() -> marked.set(true));
            assertEquals(4800 + 4800, sink.samplesWritten(), 48);
        }
        assertTrue(marked.get());
        WavReader.WavData d = WavReader.read(f);
        assertEquals(48_000, d.format().sampleRate());
        assertEquals(1, d.format().channels());
        assertEquals(9600, d.mono().length(), 48);
        assertEquals(new PcmAudio(ramp, 48_000), d.mono().slice(0, 4800));
    }
}
