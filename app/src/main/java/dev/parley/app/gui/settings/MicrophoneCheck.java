package dev.parley.app.gui.settings;

import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.capture.MicrophoneSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;

/**
 * The microphone test behind Settings, free of any UI toolkit: opens a capture device, reports the level of every
 * frame, and on {@link #listen} transcribes what is said (Vosk) until a pause after speech, or {@link #MAX_MILLIS}.
 * One daemon thread reads the device; callbacks run on it and must hand over.
 */
public final class MicrophoneCheck implements AutoCloseable {
    /** The level above which a frame counts as speech (the energy VAD's stop level). */
    static final double SPEECH_DBFS = -46;
    /** The pause after speech that ends a check. */
    static final int PAUSE_MILLIS = 700;
    /** The longest a check listens. */
    static final int MAX_MILLIS = 8000;

    /** What a check heard: the transcript, or why there is none. */
    public record Heard(String transcript, String problem) {
    }

    private final AudioSource source;
    private final Thread reader;
    private volatile Listening listening;
    private volatile boolean closed;

    private record Listening(RecognitionStream stream, VoskRecognizer vosk, Consumer<String> partial,
                             Consumer<Heard> done, long[] state, StringBuilder words) {
    }

    private MicrophoneCheck(AudioSource source, DoubleConsumer level, Consumer<String> failure) {
        this.source = source;
        this.reader = Thread.ofPlatform().daemon().name("parley-mic-test").start(() -> read(level, failure));
    }

    /** Opens {@code device} (blank: the system's default) and starts reporting levels in dBFS. */
    public static MicrophoneCheck open(String device, DoubleConsumer level, Consumer<String> failure) throws IOException {
        MicrophoneSource.Options o = MicrophoneSource.Options.defaults();
        try {
            return new MicrophoneCheck(MicrophoneSource.open(device == null || device.isBlank() ? o : o.withMixer(device)),
                    level, failure);
        } catch (IllegalArgumentException e) {
            throw new IOException("cannot open the microphone" + (device == null || device.isBlank() ? "" : " '"
                    + device + "'") + ": " + e.getMessage(), e);
        }
    }

    /**
     * Transcribes what is said next with the Vosk model in {@code voskModel} (loading it takes a moment: this is
     * called off the UI thread); {@code done} gets the transcript after a pause that follows speech.
     */
    public void listen(Path voskModel, Consumer<String> partial, Consumer<Heard> done) throws IOException {
        VoskRecognizer vosk = VoskRecognizer.load(voskModel);
        RecognitionStream stream;
        try {
            stream = vosk.openStream(source.sampleRate());
        } catch (IOException | RuntimeException e) {
            vosk.close();
            throw e;
        }
        Listening previous = listening;
        listening = new Listening(stream, vosk, partial, done, new long[] {0, -1}, new StringBuilder());
        if (previous != null) {
            end(previous, new Heard("", "a new check started"));
        }
    }

    private void read(DoubleConsumer level, Consumer<String> failure) {
        try {
            PcmAudio frame;
            while (!closed && (frame = source.read()) != null) {
                double db = LevelMeter.rmsDbfs(frame);
                level.accept(db);
                Listening l = listening;
                if (l != null) {
                    hear(l, frame, db);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failure.accept("the microphone stopped: " + e.getMessage());
            }
        }
    }

    /** state[0]: ms listened; state[1]: ms at the last speech frame (-1 before any). */
    private void hear(Listening l, PcmAudio frame, double db) throws IOException {
        long[] state = l.state();
        state[0] += frame.length() * 1000L / frame.sampleRate();
        if (db >= SPEECH_DBFS) {
            state[1] = state[0];
        }
        Transcript t = l.stream().accept(frame);
        if (t instanceof Transcript.Final f) {         // the recognizer ended an utterance of its own accord
            l.words().append(' ').append(f.text());
        } else if (!t.text().isBlank()) {
            l.partial().accept((l.words() + " " + t.text()).strip());
        }
        boolean paused = state[1] >= 0 && state[0] - state[1] >= PAUSE_MILLIS;
        if (paused || state[0] >= MAX_MILLIS) {
            l.words().append(' ').append(l.stream().finish().text());
            String text = l.words().toString().replace("[unk]", "").strip().replaceAll("\\s+", " ");
            end(l, new Heard(text, text.isEmpty() ? (state[1] < 0 ? "heard nothing: is the microphone muted or "
                    + "the wrong device?" : "heard sound but no words") : null));
        }
    }

    private void end(Listening l, Heard heard) {
        if (listening == l) {
            listening = null;
        }
        l.stream().close();
        l.vosk().close();
        l.done().accept(heard);
    }

    @Override
    public void close() {
        closed = true;
        try {
            source.close();
        } catch (Exception e) {
            // closing anyway
        }
        try {
            reader.join(3000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Listening l = listening;
        if (l != null) {
            end(l, new Heard("", "the test was stopped"));
        }
    }
}
