package dev.parley.audio.vad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnergyVadTest {
    private static PcmAudio tone(double dbfs, int millis) {
        double amp = Math.pow(10, dbfs / 20) * Math.sqrt(2) * 32768;
        short[] s = new short[16 * millis];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) Math.round(amp * Math.sin(2 * Math.PI * 300 * i / 16000.0));
        }
        return new PcmAudio(s, 16000);
    }

    /** Events per 20 ms frame, as "frameIndex:EVENT". */
    private static List<String> events(EnergyVad vad, PcmAudio audio) {
        List<String> out = new ArrayList<>();
        for (int i = 0, f = 0; i + 320 <= audio.length(); i += 320, f++) {
            VadEvent e = vad.process(audio.slice(i, i + 320));
            if (e != VadEvent.NONE) {
                out.add(f + ":" + e);
            }
        }
        return out;
    }

    @Test
    void levelMeterReadsSineRms() {
        assertEquals(-20.0, LevelMeter.rmsDbfs(tone(-20, 100)), 0.1);
        assertEquals(LevelMeter.SILENCE_DBFS, LevelMeter.rmsDbfs(PcmAudio.silence(100, 16000)));
    }

    @Test
    void hysteresisNeedsMinimumSpeechAndHangover() {
        EnergyVad vad = new EnergyVad(new VadSettings(-30, -40, 100, 200));
        // 60 ms loud blip: too short; then -35 dB (between thresholds) does not start speech
        PcmAudio a = tone(-20, 60).concat(PcmAudio.silence(200, 16000)).concat(tone(-35, 300));
        assertEquals(List.of(), events(vad, a));
        // loud 300 ms starts after 100 ms (5th frame); -35 dB keeps it going; 200 ms of silence ends it
        vad.reset();
        PcmAudio b = tone(-20, 300).concat(tone(-35, 400)).concat(PcmAudio.silence(400, 16000));
        assertEquals(List.of("4:SPEECH_START", "44:SPEECH_END"), events(vad, b));
    }

    @Test
    void fixtureSpeechIsDetectedAndNoiseIsNot() throws IOException {
        EnergyVad vad = new EnergyVad(VadSettings.defaults());
        PcmAudio speech = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/01-what-is-the-weather-like-today.wav"), 16000)
                .concat(PcmAudio.silence(500, 16000));
        List<String> ev = events(vad, speech);
        assertTrue(ev.size() >= 2 && ev.getFirst().endsWith("SPEECH_START") && ev.getLast().endsWith("SPEECH_END"), ev.toString());
        for (String noise : List.of("noise/pink-noise-hum-42dB.wav", "noise/white-noise-64dB.wav")) {
            EnergyVad v = new EnergyVad(VadSettings.defaults());
            assertEquals(List.of(), events(v, WavFileSource.load(SharedFixtures.require("vosk/wav/" + noise), 16000)), noise);
        }
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new VadSettings(-40, -30, 100, 100));
        assertThrows(IllegalArgumentException.class, () -> new VadSettings(-30, -40, -1, 100));
    }
}
