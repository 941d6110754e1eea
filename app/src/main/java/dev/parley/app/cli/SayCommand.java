package dev.parley.app.cli;

import dev.parley.audio.CancellationSignal;
import dev.parley.audio.playback.AudioSink;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.text.SentenceSplitter;
import dev.parley.audio.text.SpeechNormalizer;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code parley say "text"}: speaks text with MaryTTS, on the speaker or into a WAV file. */
@Command(name = "say", mixinStandardHelpOptions = true,
        description = {"Speaks the text with MaryTTS, sentence by sentence (numbers, symbols and markdown are "
            + "spoken sensibly). Timings go to stderr.",
            "Example: parley say \"It costs $3.50.\" --out price.wav"})
final class SayCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Parameters(index = "0", paramLabel = "TEXT", description = "What to say.")
    String text;

    @Option(names = "--out", paramLabel = "FILE.wav", description = "Write the speech to this WAV file instead of playing it.")
    Path out;

    @Option(names = "--voice", paramLabel = "VOICE", defaultValue = MaryTtsSynthesizer.DEFAULT_VOICE,
            description = "MaryTTS voice (default: ${DEFAULT-VALUE}).")
    String voice;

    SayCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (text.isBlank()) {
            throw new UsageException("nothing to say: expected some text but found an empty string");
        }
        long t0 = System.nanoTime();
        MaryTtsSynthesizer tts = MaryTtsSynthesizer.start(voice);
        long started = System.nanoTime();
        SpeechNormalizer normalizer = new SpeechNormalizer();
        SentenceSplitter splitter = new SentenceSplitter();
        List<String> sentences = new ArrayList<>(splitter.feed(text));
        sentences.addAll(splitter.flush());
        AtomicLong firstAudio = new AtomicLong(-1);
        try (AudioSink sink = out != null ? new WavFileSink(out, tts.sampleRate()) : openSpeaker(tts.sampleRate())) {
            for (String s : sentences) {
                tts.synthesize(normalizer.normalize(s), chunk -> {
                    firstAudio.compareAndSet(-1, System.nanoTime());
                    try {
                        sink.play(chunk);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, new CancellationSignal());
            }
            CountDownLatch played = new CountDownLatch(1);
            sink.mark(played::countDown);
            played.await();
            terminal.err().printf(Locale.ROOT, "MaryTTS start-up %.0f ms, first audio after %.0f ms, %.2f s of speech%s%n",
                    (started - t0) / 1e6, firstAudio.get() < 0 ? 0.0 : (firstAudio.get() - started) / 1e6,
                    sink.samplesWritten() / (double) tts.sampleRate(), out != null ? " written to " + out : "");
        }
        return 0;
    }

    private static AudioSink openSpeaker(int rate) {
        try {
            return SpeakerSink.open(null, rate);
        } catch (java.io.IOException e) {
            throw new UsageException("cannot play sound (" + e.getMessage() + "): use --out FILE.wav", e);
        }
    }
}
