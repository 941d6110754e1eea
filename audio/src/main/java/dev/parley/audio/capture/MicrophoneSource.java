package dev.parley.audio.capture;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.device.AudioLines;
import dev.parley.audio.device.JavaSoundLines;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.LineUnavailableException;
import javax.sound.sampled.Mixer;
import javax.sound.sampled.TargetDataLine;

/**
 * Microphone capture through a Java Sound {@link TargetDataLine}. Asks the device for 16-bit mono
 * at the wanted rate; when it cannot, takes 16-bit at 48/44.1 kHz or stereo and converts (mixes down,
 * resamples). A capture thread reads the line and {@code offer}s frames into a bounded queue: it
 * never blocks on the consumer, and counts the frames it had to drop.
 */
public final class MicrophoneSource implements AudioSource {
    private static final float[] FALLBACK_RATES = {48000f, 44100f, 32000f, 22050f, 16000f, 8000f};

    private final TargetDataLine line;
    private final int sampleRate;
    private final BlockingQueue<PcmAudio> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean ended;
    private volatile IOException failure;
    private final String device;

    /**
     * Capture settings.
     *
     * @param mixerName   name of the Java Sound mixer to use, or null for the system default
     * @param sampleRate  rate of the frames delivered
     * @param frameMillis duration of one frame
     * @param queueFrames how many frames may wait for the consumer before new ones are dropped
     */
    public record Options(String mixerName, int sampleRate, int frameMillis, int queueFrames) {
        public Options {
            if (sampleRate <= 0 || frameMillis <= 0 || queueFrames <= 0) {
                throw new IllegalArgumentException("expected positive rate, frame duration and queue size but found "
                        + sampleRate + " Hz, " + frameMillis + " ms, " + queueFrames + " frames");
            }
        }

        /** 16 kHz, 20 ms frames, 5 s of queue, default device. */
        public static Options defaults() {
            return new Options(null, 16_000, 20, 250);
        }

        public Options withMixer(String name) {
            return new Options(name, sampleRate, frameMillis, queueFrames);
        }
    }

    /** Names of the mixers that can capture audio (for a device chooser). */
    public static List<String> captureDevices() {
        List<String> names = new ArrayList<>();
        for (Mixer.Info info : AudioSystem.getMixerInfo()) {
            Mixer m = AudioSystem.getMixer(info);
            if (m.getTargetLineInfo().length > 0) {
                names.add(info.getName());
            }
        }
        return names;
    }

    /** Opens and starts capture; throws {@link IOException} naming the device when it cannot. */
    public static MicrophoneSource open(Options options) throws IOException {
        return open(options, new JavaSoundLines());
    }

    /** Opens and starts capture on a line from {@code lines}; throws {@link IOException} naming the device when it cannot. */
    public static MicrophoneSource open(Options options, AudioLines lines) throws IOException {
        return new MicrophoneSource(options, lines);
    }

    private MicrophoneSource(Options options, AudioLines lines) throws IOException {
        this.sampleRate = options.sampleRate();
        this.queue = new ArrayBlockingQueue<>(options.queueFrames());
        this.device = AudioLines.describe(options.mixerName());
        this.line = openLine(lines, options);
        AudioFormat f = line.getFormat();
        int channels = f.getChannels();
        int deviceRate = Math.round(f.getSampleRate());
        int frameBytes = channels * 2;
        int chunkFrames = Math.max(1, deviceRate * options.frameMillis() / 1000);
        int chunkBytes = Math.min(chunkFrames * frameBytes, (line.getBufferSize() / frameBytes) * frameBytes);
        Resampler resampler = deviceRate == sampleRate ? null : new Resampler(deviceRate, sampleRate);
        line.start();
        thread = Thread.ofPlatform().name("parley-capture").daemon().start(() -> capture(chunkBytes, channels, resampler));
    }

    private void capture(int chunkBytes, int channels, Resampler resampler) {
        byte[] bytes = new byte[chunkBytes];
        try {
            while (running) {
                int n = line.read(bytes, 0, bytes.length);
                if (n < bytes.length && running) {
                    // a blocking read returns less only when the line was stopped, closed or failed in the driver
                    // (ALSA's -ENODEV of an unplugged device, -EBADFD of a dead one): the device is gone
                    failure = new IOException("the microphone (" + device + ") stopped delivering audio (a read returned "
                            + n + " of " + bytes.length + " bytes" + (line.isOpen() ? "" : ", the line was closed")
                            + "): it was disconnected or taken by another program");
                    break;
                }
                if (n <= 0) {
                    continue;
                }
                short[] mono = toMono(bytes, n, channels);
                if (resampler != null) {
                    mono = resampler.process(mono, 0, mono.length);
                }
                if (mono.length > 0 && !queue.offer(new PcmAudio(mono, sampleRate))) {
                    dropped.incrementAndGet();
                }
            }
        } catch (RuntimeException e) {
            failure = new IOException("microphone capture failed: " + e.getMessage(), e);
        } finally {
            ended = true;
        }
    }

    private static short[] toMono(byte[] b, int n, int channels) {
        int frames = n / (2 * channels);
        short[] out = new short[frames];
        for (int i = 0; i < frames; i++) {
            int sum = 0;
            for (int c = 0; c < channels; c++) {
                int p = 2 * (i * channels + c);
                sum += (short) ((b[p] & 0xff) | (b[p + 1] << 8));
            }
            out[i] = (short) (sum / channels);
        }
        return out;
    }

    private static TargetDataLine openLine(AudioLines lines, Options o) throws IOException {
        List<AudioFormat> tries = new ArrayList<>();
        tries.add(new AudioFormat(o.sampleRate(), 16, 1, true, false));
        for (float r : FALLBACK_RATES) {
            tries.add(new AudioFormat(r, 16, 1, true, false));
        }
        for (float r : FALLBACK_RATES) {
            tries.add(new AudioFormat(r, 16, 2, true, false));
        }
        Exception last = null;
        for (AudioFormat f : tries) {
            try {
                int bytesPer100ms = (int) (f.getSampleRate() / 10) * f.getFrameSize();
                return lines.openCapture(o.mixerName(), f, bytesPer100ms * 2);
            } catch (LineUnavailableException e) {
                // the device itself refused (busy, gone): another format would fail alike, or open halfway through
                // the list as the device comes back, in a format chosen by accident
                last = e;
                break;
            } catch (IllegalArgumentException | SecurityException e) {
                last = e;                // no line of this format: try the next
            }
        }
        throw new IOException("cannot capture from " + AudioLines.describe(o.mixerName()) + ": expected a 16-bit PCM input line (mono or stereo, 8-48 kHz) but "
                + (last == null ? "found none" : "got: " + last.getMessage())
                + "; capture devices: " + captureDevices(), last);
    }

    /** The format the device delivers (before conversion). */
    public AudioFormat deviceFormat() {
        return line.getFormat();
    }

    @Override
    public int sampleRate() {
        return sampleRate;
    }

    @Override
    public PcmAudio read() throws IOException, InterruptedException {
        while (true) {
            PcmAudio frame = queue.poll(50, TimeUnit.MILLISECONDS);
            if (frame != null) {
                return frame;
            }
            if (failure != null) {
                throw failure;
            }
            if (ended || !running) {
                return queue.poll();
            }
        }
    }

    @Override
    public long droppedFrames() {
        return dropped.get();
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(1000);     // a live device delivers a frame every few ms, so the reader exits at once
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            // the reader is stuck inside the driver (a device that stopped delivering): Java Sound would
            // block stop/close until it returns, so close the line in the background instead of hanging
            Thread.ofPlatform().name("parley-capture-close").daemon().start(this::closeLine);
        } else {
            closeLine();
        }
    }

    private void closeLine() {
        line.stop();
        line.close();
    }
}
