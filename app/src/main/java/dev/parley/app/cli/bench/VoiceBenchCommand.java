package dev.parley.app.cli.bench;

import dev.parley.app.cli.LoadedModel;
import dev.parley.app.cli.ModelArgs;
import dev.parley.app.cli.OptionDefaults;
import dev.parley.app.cli.SamplingArgs;
import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.app.voice.EngineResponder;
import dev.parley.app.voice.LatencySummary;
import dev.parley.app.voice.ScriptedSpeechSource;
import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.Speculation;
import dev.parley.audio.TurnLatency;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.RealTimeSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.text.SentenceSplitter;
import dev.parley.audio.playback.WavFileSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.sampling.Sampler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley bench voice}: N spoken turns from WAV files through the whole voice loop (paced like a
 * microphone, Vosk, the engine, MaryTTS, a sink writing to a file), then the median and P90 of each
 * stage after the end of speech as parsable lines on stdout.
 */
@Command(name = "voice", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.Chat.class,
        description = {"Measures the voice loop: speech end -> final transcript -> first token -> first sentence -> first audio.",
            "Each WAV is said in real time, the next one only after the reply finished.",
            "Stdout: one 'turn=...' line per turn, then 'stage=NAME turns=N median_ms=X p90_ms=Y' per stage and",
            "'speech_end_to_first_audio median_ms=X p90_ms=Y'."})
final class VoiceBenchCommand implements Callable<Integer> {
    private static final long TURN_TIMEOUT_S = 120;      // a hung loop ends the run, it is not a measurement
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Mixin
    SamplingArgs samplingArgs;

    @Option(names = "--vosk-model", paramLabel = "DIR", required = true, description = "Vosk model folder.")
    Path voskModel;

    @Option(names = "--turns", paramLabel = "N", defaultValue = "5", description = "Spoken turns (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--wav-dir", paramLabel = "DIR", defaultValue = "../shared/fixtures/vosk/wav/marytts",
            description = "Folder of WAV files said in name order, round robin (default: ${DEFAULT-VALUE}).")
    Path wavDir;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "48",
            description = "At most N tokens per reply (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--end-silence", paramLabel = "MS", defaultValue = "" + VoiceSettings.DEFAULT_END_OF_TURN_SILENCE_MILLIS,
            description = "The silence that ends a turn, in ms (default: ${DEFAULT-VALUE}).")
    int endSilence;

    @Option(names = "--clause-chars", paramLabel = "N", defaultValue = "" + SentenceSplitter.DEFAULT_CLAUSE_MIN_CHARS,
            description = {"A comma after N characters ends a later piece sent to speech; text without any end is cut at a "
                    + "space after 4 x N (default: ${DEFAULT-VALUE})."})
    int clauseChars;

    @Option(names = "--first-clause-chars", paramLabel = "N",
            defaultValue = "" + SentenceSplitter.DEFAULT_FIRST_CLAUSE_MIN_CHARS,
            description = {"The same for a reply's first piece, cut at a space after 2 x N when N is below --clause-chars "
                    + "(default: ${DEFAULT-VALUE}).",
                "Random-weight models rarely end a sentence: this keeps their first piece as short as a real first sentence."})
    int firstClauseChars;

    @Option(names = "--speculate", paramLabel = "MS", defaultValue = "" + VoiceSettings.DEFAULT_SPECULATE_AFTER_MILLIS,
            description = {"Start the reply after MS of silence, unheard until the end-of-turn silence confirms it "
                    + "(0 = off; default: ${DEFAULT-VALUE})."})
    int speculate;

    @Option(names = "--out", paramLabel = "FILE.wav", description = "Keep the spoken replies in this WAV file (default: discarded).")
    Path out;

    VoiceBenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (turns < 1 || maxTokens < 1) {
            throw new UsageException("--turns and --max-tokens must be at least 1, found " + turns + " and " + maxTokens);
        }
        VoskRecognizer.checkModelFolder(voskModel);
        List<PcmAudio> utterances = utterances();
        PrintStream err = terminal.err();
        PrintStream stdout = terminal.out();
        Path sinkFile = out != null ? out : Files.createTempFile("parley-bench-voice", ".wav");
        if (speculate < 0 || speculate > 10_000) {
            throw new UsageException("--speculate must be 0 (off) to 10000 ms, found " + speculate);
        }
        if (clauseChars < 1 || firstClauseChars < 1) {
            throw new UsageException("--clause-chars and --first-clause-chars must be at least 1, found " + clauseChars
                    + " and " + firstClauseChars);
        }
        VoiceSettings settings = VoiceSettings.defaults().withEndOfTurnSilence(endSilence)
                .withClauses(firstClauseChars, clauseChars).withSpeculation(speculate);
        ScriptedSpeechSource script = new ScriptedSpeechSource(utterances, endSilence + 400, true);
        try (LoadedModel loaded = LoadedModel.open(modelArgs);
             CachedSession session = loaded.newSession(modelArgs.context())) {
            EngineResponder responder = new EngineResponder(loaded.newConversation(session, null),
                    Sampler.create(samplingArgs.settings()), maxTokens);
            responder.warmUp();
            long t0 = System.nanoTime();
            VoskRecognizer vosk = VoskRecognizer.load(voskModel);
            MaryTtsSynthesizer tts;
            try {
                tts = MaryTtsSynthesizer.start();
            } catch (IOException | RuntimeException e) {
                vosk.close();
                throw e;
            }
            err.printf(Locale.ROOT, "parley: bench voice: %s, %d threads, %d turns from %s; Vosk + MaryTTS ready in %.1f s%n",
                    modelArgs.model().getFileName(), modelArgs.threads(), turns, wavDir, (System.nanoTime() - t0) / 1e9);
            Recorder recorder = new Recorder(script, stdout);
            try (VoicePipeline pipeline = new VoicePipeline(new RealTimeSource(script), vosk, responder, tts,
                    new WavFileSink(sinkFile, tts.sampleRate()), settings)) {
                pipeline.addListener(recorder);
                pipeline.start();
                for (int i = 0; i < turns; i++) {
                    if (!recorder.awaitTurns(i + 1, TURN_TIMEOUT_S)) {
                        throw new IOException("turn " + (i + 1) + " did not finish within " + TURN_TIMEOUT_S + " s");
                    }
                }
                Speculation sp = pipeline.speculation();
                stdout.printf(Locale.ROOT, "speculative_replies started=%d confirmed=%d withdrawn=%d%n", sp.started(),
                        sp.confirmed(), sp.started() - sp.confirmed());
            } finally {
                if (out == null) {
                    Files.deleteIfExists(sinkFile);
                }
            }
            report(stdout, recorder.latencies, recorder.unheard.get());
        }
        return 0;
    }

    private List<PcmAudio> utterances() throws IOException {
        if (!Files.isDirectory(wavDir)) {
            throw new UsageException("no folder of WAV files at " + wavDir + ": pass --wav-dir DIR");
        }
        List<Path> wavs;
        try (Stream<Path> files = Files.list(wavDir)) {
            wavs = files.filter(p -> p.getFileName().toString().endsWith(".wav")).sorted().toList();
        }
        if (wavs.isEmpty()) {
            throw new UsageException("expected WAV files in " + wavDir + " but found none");
        }
        List<PcmAudio> loaded = new ArrayList<>();
        for (Path w : wavs) {
            loaded.add(WavFileSource.load(w, WavFileSource.DEFAULT_RATE));
        }
        List<PcmAudio> said = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            said.add(loaded.get(i % loaded.size()));
        }
        return said;
    }

    private static void report(PrintStream out, List<TurnLatency> latencies, int unheard) {
        LatencySummary summary = LatencySummary.of(latencies);
        for (LatencySummary.StageFigures f : summary.stages()) {
            out.println(f.line());
        }
        LatencySummary.StageFigures audio = summary.stage(TurnLatency.Stage.FIRST_AUDIO);
        out.printf(Locale.ROOT, "speech_end_to_first_audio turns=%d median_ms=%.1f p90_ms=%.1f unheard=%d%n",
                audio.turns(), audio.medianMillis(), audio.p90Millis(), unheard);
    }

    /** Collects each turn's latency, prints a line per turn and lets the script say the next utterance. */
    private static final class Recorder implements VoiceListener {
        final List<TurnLatency> latencies = new CopyOnWriteArrayList<>();
        final AtomicInteger unheard = new AtomicInteger();
        private final ScriptedSpeechSource script;
        private final PrintStream out;
        private int done;

        Recorder(ScriptedSpeechSource script, PrintStream out) {
            this.script = script;
            this.out = out;
        }

        @Override
        public void userTurn(long turn, Transcript.Final text) {
            if (text.text().replace("[unk]", "").isBlank()) {
                unheard.incrementAndGet();
                out.println("turn=" + turn + " heard=\"" + text.text() + "\" (no reply)");
                count();
            }
        }

        @Override
        public void turnFinished(Exchange e) {
            latencies.add(e.latency());
            TurnLatency l = e.latency();
            out.printf(Locale.ROOT, "turn=%d heard=\"%s\" reply_chars=%d first_sentence_chars=%d final_transcript_ms=%.0f first_token_ms=%.0f "
                            + "first_sentence_ms=%.0f first_audio_ms=%.0f last_sample_ms=%.0f%n",
                    e.turn(), e.userText(), e.replyText().length(), e.spoken().isEmpty() ? 0 : e.spoken().getFirst().length(),
                    l.millisAfterSpeechEnd(TurnLatency.Stage.FINAL_TRANSCRIPT), l.millisAfterSpeechEnd(TurnLatency.Stage.FIRST_TEXT),
                    l.millisAfterSpeechEnd(TurnLatency.Stage.FIRST_SENTENCE), l.millisAfterSpeechEnd(TurnLatency.Stage.FIRST_AUDIO),
                    l.millisAfterSpeechEnd(TurnLatency.Stage.LAST_SAMPLE));
            count();
        }

        private synchronized void count() {
            done++;
            script.release();
            notifyAll();
        }

        synchronized boolean awaitTurns(int n, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (done < n) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                wait(left);
            }
            return true;
        }
    }
}
