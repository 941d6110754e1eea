package dev.parley.audio.asr;

import dev.parley.audio.PcmAudio;
import java.io.IOException;

/**
 * A speech-to-text engine holding a loaded model, shared by any number of
 * {@link RecognitionStream}s (one per audio stream / thread).
 */
public interface SpeechRecognizer extends AutoCloseable {
    /** Opens a new stream for 16-bit mono audio at {@code sampleRate}. */
    RecognitionStream openStream(int sampleRate) throws IOException;

    /** Recognizes a whole clip as one utterance (convenience for files). */
    default Transcript.Final transcribe(PcmAudio audio) throws IOException {
        try (RecognitionStream s = openStream(audio.sampleRate())) {
            StringBuilder text = new StringBuilder();
            int chunk = Math.max(1, audio.sampleRate() / 10);
            for (int i = 0; i < audio.length(); i += chunk) {
                if (s.accept(audio.slice(i, Math.min(audio.length(), i + chunk))) instanceof Transcript.Final f) {
                    append(text, f.text());
                }
            }
            append(text, s.finish().text());
            return new Transcript.Final(text.toString());
        }
    }

    private static void append(StringBuilder sb, String words) {
        if (!words.isBlank()) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(words.strip());
        }
    }

    @Override
    void close();
}
