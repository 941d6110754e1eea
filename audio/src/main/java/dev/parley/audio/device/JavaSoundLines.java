package dev.parley.audio.device;

import java.util.ArrayList;
import java.util.List;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.DataLine;
import javax.sound.sampled.Line;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.Mixer;
import javax.sound.sampled.SourceDataLine;
import javax.sound.sampled.TargetDataLine;

/** The real {@link AudioLines}: Java Sound's mixers (ALSA on Linux). */
public final class JavaSoundLines implements AudioLines {

    @Override
    public TargetDataLine openCapture(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException {
        TargetDataLine l = (TargetDataLine) line(device, new DataLine.Info(TargetDataLine.class, format));
        l.open(format, bufferBytes);
        return l;
    }

    @Override
    public SourceDataLine openPlayback(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException {
        SourceDataLine l = (SourceDataLine) line(device, new DataLine.Info(SourceDataLine.class, format));
        l.open(format, bufferBytes);
        return l;
    }

    private static Line line(String device, DataLine.Info info) throws LineUnavailableException {
        if (device == null) {
            return AudioSystem.getLine(info);
        }
        List<String> names = new ArrayList<>();
        for (Mixer.Info m : AudioSystem.getMixerInfo()) {
            names.add(m.getName());
            if (m.getName().equals(device)) {
                return AudioSystem.getMixer(m).getLine(info);
            }
        }
        throw new LineUnavailableException("no audio device named '" + device + "': expected one of " + names);
    }
}
