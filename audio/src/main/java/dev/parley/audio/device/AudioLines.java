package dev.parley.audio.device;

import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.SourceDataLine;
import javax.sound.sampled.TargetDataLine;

/**
 * Where the microphone and the speaker get their lines: the one seam between Parley and the sound hardware.
 * {@link JavaSoundLines} is the real one; tests wrap it to take the (virtual) device away and give it back.
 * Both methods return an open line or throw what Java Sound throws for a device that is absent or busy.
 */
public interface AudioLines {
    /**
     * An open capture line.
     *
     * @param device      the mixer's name, or null for the system default
     * @param bufferBytes the device buffer to ask for
     * @throws LineUnavailableException the device exists but cannot be opened now (busy, gone)
     * @throws IllegalArgumentException no line of that format ("No line matching ...")
     */
    TargetDataLine openCapture(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException;

    /** An open playback line; the same contract as {@link #openCapture}. */
    SourceDataLine openPlayback(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException;

    /** A readable name for {@code device} in messages. */
    static String describe(String device) {
        return device == null ? "the default audio device" : "'" + device + "'";
    }
}
