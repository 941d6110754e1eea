package dev.parley.audio;

import java.util.ArrayList;
import java.util.List;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.Mixer;

/**
 * Names of the audio devices (Java Sound mixers) for a device chooser, read without opening any of
 * them: asking a mixer for its lines opens the device, which can block (a capture device reading a
 * pipe nobody writes, a busy driver), so this is safe on a UI thread where
 * {@code MicrophoneSource.captureDevices()} is not.
 */
public final class AudioDevices {
    private AudioDevices() {
    }

    /** Every mixer's name, capture and playback alike, in Java Sound's order. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (Mixer.Info info : AudioSystem.getMixerInfo()) {
            names.add(info.getName());
        }
        return names;
    }
}
