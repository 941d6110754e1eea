package dev.parley.app.cli;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code parley transcribe FILE.wav}: speech to text with Vosk; partials on stderr, the final text last on stdout. */
@Command(name = "transcribe", mixinStandardHelpOptions = true,
        description = {"Transcribes a WAV file (any uncompressed WAV: converted to 16 kHz mono) with Vosk.",
            "Partial results go to stderr; the final text is the last line of stdout.",
            "Example: parley transcribe hello.wav --vosk-model ~/vosk-model-small-en-us-0.15"})
final class TranscribeCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Parameters(index = "0", paramLabel = "FILE.wav", description = "The recording to transcribe.")
    Path file;

    @Option(names = "--vosk-model", paramLabel = "DIR",
            description = "Vosk model folder (default: the catalog's default speech model in the model store).")
    Path voskModel;

    @Mixin
    StoreArgs storeArgs;

    TranscribeCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        PcmAudio audio = WavFileSource.load(file, WavFileSource.DEFAULT_RATE);
        Path dir = VoskModelChoice.choose(voskModel, storeArgs);
        try (VoskRecognizer vosk = VoskRecognizer.load(dir);
             RecognitionStream stream = vosk.openStream(audio.sampleRate())) {
            StringBuilder text = new StringBuilder();
            String lastPartial = "";
            int chunk = audio.sampleRate() / 10;
            for (int i = 0; i < audio.length(); i += chunk) {
                switch (stream.accept(audio.slice(i, Math.min(audio.length(), i + chunk)))) {
                    case Transcript.Final f -> append(text, f.text());
                    case Transcript.Partial p -> {
                        if (!p.isEmpty() && !p.text().equals(lastPartial)) {
                            lastPartial = p.text();
                            terminal.err().println("partial: " + (text + " " + p.text()).strip());
                        }
                    }
                }
            }
            append(text, stream.finish().text());
            terminal.out().println(text);
        }
        return 0;
    }

    private static void append(StringBuilder sb, String words) {
        if (!words.isBlank()) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(words.strip());
        }
    }
}
