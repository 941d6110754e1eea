package dev.parley.audio.tts;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import marytts.LocalMaryInterface;
import marytts.exceptions.MaryConfigurationException;
import marytts.exceptions.SynthesisException;

/**
 * Speech synthesis with MaryTTS 5.2.1 running in-process ({@link LocalMaryInterface}), voice
 * {@code cmu-slt-hsmm} by default. Starting MaryTTS takes seconds, so make one instance at start-up
 * (off the UI thread) and share it; its settings are fixed at construction because MaryTTS's are
 * mutable and shared. MaryTTS renders audio lazily while its stream is read, so audio is handed on
 * in {@value #CHUNK_MILLIS} ms pieces as it is read.
 */
public final class MaryTtsSynthesizer implements SpeechSynthesizer {
    /** The voice bundled with Parley. */
    public static final String DEFAULT_VOICE = "cmu-slt-hsmm";
    static final int CHUNK_MILLIS = 50;
    /**
     * Said (and discarded) at start-up so that the JIT has compiled MaryTTS's text analysis, parameter
     * generation and vocoder before the first reply: a cold first sentence took about 1.2 s to its first
     * audio in {@code parley bench voice}, a warm one 100-150 ms.
     */
    private static final List<String> WARM_UP = List.of(
            "It is a quarter past three, and the weather is mild today.",
            "Sure! Here is a short answer.",
            "Let me think about that for a moment, then I will tell you.");
    private static final String LOG_CONFIG = "jar:/dev/parley/audio/tts/marytts-log4j.properties";

    private final LocalMaryInterface mary;
    private final String voice;
    private final int sampleRate;
    private volatile double speakingRate = 1.0;

    private MaryTtsSynthesizer(LocalMaryInterface mary, String voice, int sampleRate) {
        this.mary = mary;
        this.voice = voice;
        this.sampleRate = sampleRate;
    }

    /**
     * Starts MaryTTS with {@code voice} (about 3 s), renders a word to learn the output format, then a few
     * sentences so that the first reply does not pay for the JIT.
     */
    public static MaryTtsSynthesizer start(String voice) throws IOException {
        // MaryTTS reads its log4j setup from this system property; without it, it writes ./log/server.log.
        if (System.getProperty("log.config") == null) {
            System.setProperty("log.config", LOG_CONFIG);
        }
        LocalMaryInterface mary;
        try {
            mary = new LocalMaryInterface();
        } catch (MaryConfigurationException e) {
            throw new IOException("MaryTTS could not start: " + e.getMessage(), e);
        }
        Set<String> voices = mary.getAvailableVoices();
        if (!voices.contains(voice)) {
            throw new IOException("no MaryTTS voice '" + voice + "': expected one of " + voices);
        }
        mary.setLocale(Locale.US);
        mary.setVoice(voice);
        try (AudioInputStream warm = mary.generateAudio("Hello.")) {
            AudioFormat f = warm.getFormat();
            drain(warm);
            MaryTtsSynthesizer tts = new MaryTtsSynthesizer(mary, voice, Math.round(f.getSampleRate()));
            CancellationSignal never = new CancellationSignal();
            for (String text : WARM_UP) {
                tts.synthesize(text, chunk -> { }, never);
            }
            return tts;
        } catch (SynthesisException e) {
            throw new IOException("MaryTTS voice " + voice + " failed its warm-up synthesis: " + e.getMessage(), e);
        }
    }

    /** Starts MaryTTS with {@link #DEFAULT_VOICE}. */
    public static MaryTtsSynthesizer start() throws IOException {
        return start(DEFAULT_VOICE);
    }

    /** The voice in use. */
    public String voice() {
        return voice;
    }

    /**
     * Speaks {@code rate} times as fast as the voice's own pace (0.5 to 2), pitch unchanged ({@link TimeStretch}):
     * MaryTTS's HMM voice takes its durations from its acoustic model, so neither its {@code Rate} effect nor an
     * SSML prosody rate changes them. At a rate other than 1 each sentence is stretched whole, so its first audio
     * comes when the sentence is synthesized rather than as it streams. Applies from the next sentence.
     *
     * @throws IllegalArgumentException when {@code rate} is outside 0.5 to 2
     */
    public void speakingRate(double rate) {
        if (!(rate >= 0.5 && rate <= 2)) {
            throw new IllegalArgumentException("expected a speaking rate from 0.5 to 2 but found " + rate);
        }
        this.speakingRate = rate;
    }

    @Override
    public int sampleRate() {
        return sampleRate;
    }

    @Override
    public void synthesize(String text, Consumer<PcmAudio> chunks, CancellationSignal cancel) throws IOException {
        if (text == null || text.isBlank() || cancel.isCancelled()) {
            return;
        }
        double rate = speakingRate;
        if (rate != 1.0) {
            java.util.List<PcmAudio> whole = new java.util.ArrayList<>();
            synthesizeAtOwnPace(text, whole::add, cancel);
            if (whole.isEmpty() || cancel.isCancelled()) {
                return;
            }
            int sr = whole.getFirst().sampleRate();
            PcmAudio stretched = new PcmAudio(TimeStretch.stretch(PcmAudio.join(whole, sr).samples(), sr, rate), sr);
            int piece = Math.max(1, sr * CHUNK_MILLIS / 1000);
            for (int from = 0; from < stretched.length() && !cancel.isCancelled(); from += piece) {
                chunks.accept(stretched.slice(from, Math.min(stretched.length(), from + piece)));
            }
            return;
        }
        synthesizeAtOwnPace(text, chunks, cancel);
    }

    private void synthesizeAtOwnPace(String text, Consumer<PcmAudio> chunks, CancellationSignal cancel)
            throws IOException {
        AudioInputStream raw;
        try {
            raw = mary.generateAudio(text);
        } catch (SynthesisException e) {
            throw new IOException("MaryTTS could not speak \"" + text + "\": " + e.getMessage(), e);
        }
        try (AudioInputStream in = toPcm16Mono(raw)) {
            AudioFormat f = in.getFormat();
            int rate = Math.round(f.getSampleRate());
            boolean big = f.isBigEndian();
            byte[] buf = new byte[rate * CHUNK_MILLIS / 1000 * 2];
            int filled = 0;
            // MaryTTS streams stop early with readAllBytes(); read in a loop until -1
            for (int n; (n = in.read(buf, filled, buf.length - filled)) >= 0; ) {
                if (cancel.isCancelled()) {
                    // MaryTTS vocodes on a thread of its own that blocks forever once nobody reads (it has no
                    // way to be stopped): read the rest without using it, so that the thread and its buffers end.
                    drain(in);
                    return;
                }
                filled += n;
                if (filled == buf.length) {
                    chunks.accept(decode(buf, filled, big, rate));
                    filled = 0;
                }
            }
            if (filled >= 2 && !cancel.isCancelled()) {
                chunks.accept(decode(buf, filled & ~1, big, rate));
            }
        }
    }

    private static AudioInputStream toPcm16Mono(AudioInputStream in) throws IOException {
        AudioFormat f = in.getFormat();
        if (f.getEncoding() == AudioFormat.Encoding.PCM_SIGNED && f.getSampleSizeInBits() == 16 && f.getChannels() == 1) {
            return in;
        }
        AudioFormat target = new AudioFormat(f.getSampleRate(), 16, 1, true, false);
        if (!AudioSystem.isConversionSupported(target, f)) {
            throw new IOException("expected MaryTTS to produce PCM audio convertible to 16-bit mono but found " + f);
        }
        return AudioSystem.getAudioInputStream(target, in);
    }

    private static PcmAudio decode(byte[] b, int n, boolean bigEndian, int rate) {
        short[] s = new short[n / 2];
        for (int i = 0; i < s.length; i++) {
            int lo = b[2 * i + (bigEndian ? 1 : 0)] & 0xff;
            int hi = b[2 * i + (bigEndian ? 0 : 1)];
            s[i] = (short) ((hi << 8) | lo);
        }
        return new PcmAudio(s, rate);
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[16384];
        while (in.read(buf) >= 0) {
            // discard
        }
    }

    @Override
    public void close() {
        // LocalMaryInterface holds no native resources; MaryTTS's global state lives until the JVM ends.
    }
}
