package dev.parley.audio.device;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.DataLine;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.SourceDataLine;
import javax.sound.sampled.TargetDataLine;

/**
 * The real {@link JavaSoundLines} (ALSA lines on the virtual sound device), with what the hardware does when it goes
 * away: {@link #pullOut} closes the lines that are open under their users, as the kernel does to a line whose device
 * was unplugged (reads and writes then come back short, in Java Sound itself). That the device cannot be opened
 * while it is away is real too: the test deletes its ALSA file (see {@code VirtualSoundDevice#unplugMicrophone}).
 * Only "busy" is said here ({@link #busy}), since ALSA's file devices can be opened any number of times.
 */
public final class UnpluggableLines implements AudioLines {
    private final AudioLines real = new JavaSoundLines();
    private final List<DataLine> capture = new CopyOnWriteArrayList<>();
    private final List<DataLine> playback = new CopyOnWriteArrayList<>();
    private volatile boolean captureBusy;
    private volatile boolean playbackBusy;
    private final java.util.concurrent.atomic.AtomicInteger captureOpens = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public TargetDataLine openCapture(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException {
        captureOpens.incrementAndGet();
        if (captureBusy) {
            throw new LineUnavailableException("Device or resource busy (another program holds the capture device)");
        }
        TargetDataLine l = real.openCapture(device, format, bufferBytes);
        capture.add(l);
        return l;
    }

    @Override
    public SourceDataLine openPlayback(String device, AudioFormat format, int bufferBytes) throws LineUnavailableException {
        if (playbackBusy) {
            throw new LineUnavailableException("Device or resource busy (another program holds the playback device)");
        }
        SourceDataLine l = real.openPlayback(device, format, bufferBytes);
        playback.add(l);
        return l;
    }

    /** Closes the open capture (or playback) lines under their users, on a thread of its own like the kernel. */
    public void pullOut(boolean microphone) {
        List<DataLine> lines = microphone ? capture : playback;
        List<DataLine> open = List.copyOf(lines);
        lines.clear();
        Thread.ofPlatform().name("test-unplug").daemon().start(() -> open.forEach(DataLine::close));
    }

    public void busy(boolean microphone, boolean busy) {
        if (microphone) {
            captureBusy = busy;
        } else {
            playbackBusy = busy;
        }
    }

    /** How many times the capture device was asked for (each format tried counts). */
    public int captureOpens() {
        return captureOpens.get();
    }
}
