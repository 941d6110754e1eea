package dev.parley.app.voice;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.tts.SpeechSynthesizer;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Lends a synthesizer to a voice pipeline without handing over its life: a pipeline closes its
 * synthesizer when it stops, but MaryTTS takes seconds to start, so the app (or a test class) keeps
 * one instance for many pipelines and closes it itself.
 */
public final class KeepOpenSynthesizer implements SpeechSynthesizer {
    private final SpeechSynthesizer inner;

    public KeepOpenSynthesizer(SpeechSynthesizer inner) {
        this.inner = inner;
    }

    @Override
    public int sampleRate() {
        return inner.sampleRate();
    }

    @Override
    public void synthesize(String text, Consumer<PcmAudio> chunks, CancellationSignal cancel) throws IOException {
        inner.synthesize(text, chunks, cancel);
    }

    /** Does nothing: the owner closes the synthesizer. */
    @Override
    public void close() {
    }
}
