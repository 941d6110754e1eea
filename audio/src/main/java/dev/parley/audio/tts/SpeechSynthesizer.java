package dev.parley.audio.tts;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.PcmAudio;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Text to speech. Implementations are made once (they are slow to start) and shared; text should
 * already be normalised for speaking ({@link dev.parley.audio.text.SpeechNormalizer}).
 */
public interface SpeechSynthesizer extends AutoCloseable {
    /** Sample rate of the audio this synthesizer produces. */
    int sampleRate();

    /**
     * Speaks {@code text}, handing mono 16-bit audio to {@code chunks} as soon as each piece is ready
     * (the first piece arrives long before the whole text is rendered). Stops early, without error,
     * once {@code cancel} is cancelled. Blank text produces nothing.
     */
    void synthesize(String text, Consumer<PcmAudio> chunks, CancellationSignal cancel) throws IOException;

    /** Speaks {@code text} into one clip. */
    default PcmAudio synthesize(String text) throws IOException {
        List<PcmAudio> parts = new ArrayList<>();
        synthesize(text, parts::add, new CancellationSignal());
        return PcmAudio.join(parts, sampleRate());
    }

    @Override
    void close();
}
