package dev.parley.app.cli.bench;

import dev.parley.app.cli.LoadedModel;
import dev.parley.app.cli.ModelArgs;
import dev.parley.app.cli.OptionDefaults;
import dev.parley.app.cli.SamplingArgs;
import dev.parley.app.cli.Terminal;
import dev.parley.app.cli.UsageException;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.FrameCost;
import dev.parley.audio.room.ImpulseResponse;
import dev.parley.audio.room.NoiseBed;
import dev.parley.audio.room.NoiseBeds;
import dev.parley.audio.room.RoomAssets;
import dev.parley.audio.room.RoomMixer;
import dev.parley.audio.room.RoomWav;
import dev.parley.audio.room.VirtualRoom;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.audio.vad.SileroVadSettings;
import dev.parley.audio.vad.VadChoice;
import dev.parley.audio.vad.VadFactory;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.sampling.SamplingSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley bench duplex}: the voice loop in simulated rooms. For every room, echo level and SNR,
 * the planned trials run in real time on a {@link VirtualRoom}: the user asks, Parley answers through
 * the room's loudspeaker (its echo comes back at the microphone), and in most trials the user barges
 * in at a random moment of the reply; every fourth trial is noise-only. Stdout: a Markdown table with
 * a row per condition, then the five summary lines of issue 14.
 */
@Command(name = "duplex", mixinStandardHelpOptions = true, defaultValueProvider = DuplexBenchCommand.Defaults.class,
        description = {"Measures the voice loop in simulated rooms: self-interruptions, self-turns, barge-in detection and",
            "latency, barge-in transcripts and turns started by noise, per room, echo level and SNR.",
            "--make-rooms DIR writes a set of rooms, noise beds and speech to use instead."})
final class DuplexBenchCommand implements Callable<Integer> {
    /** The sentence whose echo level calibrates each room (the reply voice through the room at unit gain). */
    static final String CALIBRATION = "Here is what I found, it takes a few minutes and you can stop me at any time.";
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Mixin
    SamplingArgs samplingArgs;

    @Option(names = "--vosk-model", paramLabel = "DIR", description = "Vosk model folder.")
    Path voskModel;

    @Option(names = "--rooms", paramLabel = "DIR", description = "Room impulse responses: 16 kHz mono WAVs (leading zeros = "
            + "device latency); NAME-user.wav beside NAME.wav is the user's path, else the user is heard dry.")
    Path rooms;

    @Option(names = "--speech", paramLabel = "DIR", description = "The user's recordings: WAVs, each with a .txt transcript.")
    Path speechDir;

    @Option(names = "--noise", paramLabel = "DIR", description = "Noise-bed WAVs, heard one after another, looped "
            + "(default: fan, babble and cafe beds generated from the speech).")
    Path noiseDir;

    @Option(names = "--echo-db", paramLabel = "LIST", split = ",", defaultValue = "0,-10",
            description = "Echo levels at the microphone relative to the user's speech, dB (default: ${DEFAULT-VALUE}).")
    List<Double> echoDb;

    @Option(names = "--snr-db", paramLabel = "LIST", split = ",", defaultValue = "20,10",
            description = "User's speech to noise, dB (default: ${DEFAULT-VALUE}).")
    List<Double> snrDb;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "4", description = "Trials per condition (default: ${DEFAULT-VALUE}).")
    int trials;

    @Option(names = "--aec", paramLabel = "on|aec3|off", defaultValue = "on",
            description = "Echo cancellation and full duplex (default: ${DEFAULT-VALUE}: Parley's linear canceller; "
                    + "aec3: WebRTC's AEC3); off = no front end, half-duplex with the energy VAD.")
    String aec;

    @Option(names = "--listening-cue", paramLabel = "on|off", defaultValue = "on",
            description = "Full duplex: the soft cue played when listening starts, from which the echo canceller learns "
                    + "the room before the first reply (default: ${DEFAULT-VALUE}).")
    String listeningCue;

    @Option(names = "--vad", paramLabel = "energy|silero", defaultValue = "energy",
            description = "Voice activity detector of the loop (default: ${DEFAULT-VALUE}); silero needs --vad-model.")
    String vad;

    @Option(names = "--vad-model", paramLabel = "FILE", description = "The Silero VAD v5 ONNX file for --vad silero.")
    Path vadModel;

    @Option(names = "--speech-dbfs", paramLabel = "DB", defaultValue = "-26",
            description = "Active level of the user's speech at the microphone, dBFS (default: ${DEFAULT-VALUE}).")
    double speechDbfs;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "32",
            description = "At most N tokens per reply (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--make-rooms", paramLabel = "DIR", description = "Write DIR/rooms, DIR/noise and DIR/speech (from --speech, "
            + "default the fixture recordings) and exit.")
    Path makeRooms;

    /** Chat sampling, and a fixed seed so that runs draw the same trials. */
    public static final class Defaults extends OptionDefaults {
        public Defaults() {
            super(Map.of("--temperature", "0.8", "--top-k", "40", "--top-p", "0.95", "--min-p", "0.05",
                    "--repeat-penalty", "1.0", "--repeat-last-n", "64", "--seed", "1"));
        }
    }

    DuplexBenchCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (makeRooms != null) {
            return makeAssets();
        }
        DuplexFrontEnd front = frontEnd();
        VadChoice vadChoice;
        try {
            vadChoice = VadChoice.parse(vad);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--vad: " + e.getMessage());
        }
        if (vadChoice == VadChoice.SILERO && (vadModel == null || !Files.isRegularFile(vadModel))) {
            throw new UsageException("--vad silero needs --vad-model FILE (the Silero VAD v5 ONNX file) but found "
                    + (vadModel == null ? "none" : vadModel + ", which is not a file"));
        }
        VoiceSettings settings = front.settings(VoiceSettings.defaults()).withListeningCue(switch (listeningCue.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new UsageException("--listening-cue must be on or off, found '" + listeningCue + "'");
        });
        front.open().close();       // says now, before anything slow, when echo cancellation cannot run
        if (voskModel == null || rooms == null || speechDir == null) {
            throw new UsageException("bench duplex needs --vosk-model DIR, --rooms DIR and --speech DIR (or --make-rooms DIR)");
        }
        if (trials < 1 || maxTokens < 1 || echoDb.isEmpty() || snrDb.isEmpty()) {
            throw new UsageException("--trials and --max-tokens must be at least 1 and --echo-db and --snr-db not empty, found "
                    + trials + ", " + maxTokens + ", " + echoDb + ", " + snrDb);
        }
        VoskRecognizer.checkModelFolder(voskModel);
        List<Room> roomList = loadRooms();
        List<DuplexRun.Speech> speech = loadSpeech();
        float[] bed = noiseBed(speech);
        SamplingSettings sampling = samplingArgs.settings();
        DuplexPlan plan = DuplexPlan.draw(trials, speech.size(), sampling.seed());
        PrintStream err = terminal.err();
        PrintStream out = terminal.out();
        try (LoadedModel loaded = LoadedModel.open(modelArgs); MaryTtsSynthesizer tts = MaryTtsSynthesizer.start()) {
            PcmAudio voice = tts.synthesize(CALIBRATION);
            err.printf(Locale.ROOT, "parley: bench duplex: %s, %d threads, %d rooms x %d echo levels x %d SNRs x %d trials, %s%n",
                    modelArgs.model().getFileName(), modelArgs.threads(), roomList.size(), echoDb.size(), snrDb.size(), trials,
                    front.describe() + ", " + vadChoice.id() + " VAD");
            VadFactory vads = new VadFactory(m -> err.println("parley: bench duplex: " + m));
            DuplexRun.Shared shared = new DuplexRun.Shared(loaded, modelArgs.context(), Sampler.create(sampling), maxTokens,
                    voskModel, tts, settings, front,
                    () -> vads.open(vadChoice, vadModel, settings.vad(), SileroVadSettings.defaults()), speech, plan, err);
            List<String> rows = new ArrayList<>();
            DuplexTally total = DuplexTally.empty();
            Map<Double, DuplexTally> bySnr = new LinkedHashMap<>();
            int condition = 0;
            for (Room room : roomList) {
                double unit = VirtualRoom.echoLevel(voice, room.echo());
                for (double echo : echoDb) {
                    for (double snr : snrDb) {
                        RoomMixer.Levels3 levels = new RoomMixer.Levels3(speechDbfs, echo, snr);
                        String label = String.format(Locale.ROOT, "%s echo %+.0f dB snr %.0f dB", room.name(), echo, snr);
                        VirtualRoom.Setup setup = new VirtualRoom.Setup(room.echo(), room.user(), levels, unit, bed,
                                sampling.seed() + condition++);
                        DuplexTally t = DuplexRun.run(shared, setup, label);
                        rows.add(row(room.name(), echo, snr, t));
                        total = total.plus(t);
                        bySnr.merge(snr, t, DuplexTally::plus);
                    }
                }
            }
            out.println("| room | echo dB | SNR dB | trials | replies | unanswered | self-interruptions | cut unheard | self-turns "
                    + "| barge-in caught | median ms | p90 ms | skipped | transcripts exact | noise false turns | end of turn ms "
                    + "| first audio ms |");
            out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            rows.forEach(out::println);
            out.println();
            timings(bySnr, total).forEach(out::println);
            out.println();
            total.finalLines().forEach(out::println);
        }
        return 0;
    }

    private DuplexFrontEnd frontEnd() {
        return switch (aec.toLowerCase(Locale.ROOT)) {
            case "on" -> DuplexFrontEnd.ON;
            case "aec3" -> DuplexFrontEnd.AEC3;
            case "off" -> DuplexFrontEnd.OFF;
            default -> throw new UsageException("--aec must be on, aec3 or off, found '" + aec + "'");
        };
    }

    private static String row(String room, double echo, double snr, DuplexTally t) {
        return String.format(Locale.ROOT, "| %s | %+.0f | %.0f | %d | %d | %d | %d | %d | %d | %d/%d | %.0f | %.0f | %d | %d/%d | %d "
                        + "| %s | %s |",
                room, echo, snr, t.trials(), t.replies(), t.unanswered(), t.selfInterruptions(), t.cutUnheard(), t.selfTurns(),
                t.detected(),
                t.bargeIns(), t.medianMs(), t.p90Ms(), t.skipped(), t.exact(), t.bargeIns(), t.noiseFalseTurns(),
                median(t.endOfTurnMs()), median(t.firstAudioMs()));
    }

    /** The median of {@code ms}, or "-" where there is none. */
    private static String median(List<Double> ms) {
        return ms.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f", DuplexTally.percentile(ms, 0.5));
    }

    /**
     * The lines on time above the final five: the end of turn per SNR (to set the noisy conditions beside the quietest,
     * the highest SNR of the run), speech end to first audio, and what the front end cost per 10 ms frame.
     */
    static List<String> timings(Map<Double, DuplexTally> bySnr, DuplexTally total) {
        List<String> lines = new ArrayList<>();
        StringBuilder eot = new StringBuilder("end of turn (the user's voice end -> final transcript), median ms by SNR:");
        for (Map.Entry<Double, DuplexTally> e : bySnr.entrySet()) {
            List<Double> ms = e.getValue().endOfTurnMs();
            eot.append(String.format(Locale.ROOT, " %.0f dB %s (P90 %s, %d turns);", e.getKey(), median(ms),
                    ms.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f", DuplexTally.percentile(ms, 0.9)), ms.size()));
        }
        lines.add(eot.substring(0, eot.length() - (bySnr.isEmpty() ? 0 : 1)));
        List<Double> fa = total.firstAudioMs();
        lines.add(String.format(Locale.ROOT, "speech end -> first audio: median %s ms, P90 %s ms (%d replies; %d replies started"
                        + " speculatively, %d of them confirmed by the final transcript)", median(fa),
                fa.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f", DuplexTally.percentile(fa, 0.9)), fa.size(),
                total.speculation().started(), total.speculation().confirmed()));
        FrameCost fe = total.frontEnd();
        lines.add(fe.frames() == 0 ? "audio front end: none ran (--aec off)"
                : String.format(Locale.ROOT, "audio front end per 10 ms frame: median %.0f us, P99 %.0f us, %.1f%% of real time at"
                        + " the median (%d frames)", fe.percentileMicros(0.5), fe.percentileMicros(0.99),
                        fe.percentileMicros(0.5) / 100, fe.frames()));
        return lines;
    }

    /** A room: its echo path and the user's path (null: dry). */
    record Room(String name, ImpulseResponse echo, ImpulseResponse user) {
    }

    private List<Room> loadRooms() throws IOException {
        if (!Files.isDirectory(rooms)) {
            throw new UsageException("no folder of room impulse responses at " + rooms + ": pass --rooms DIR "
                    + "(parley bench duplex --make-rooms DIR writes some)");
        }
        List<Path> wavs;
        try (Stream<Path> files = Files.list(rooms)) {
            wavs = files.filter(p -> p.getFileName().toString().endsWith(".wav"))
                    .filter(p -> !p.getFileName().toString().endsWith(RoomAssets.USER_SUFFIX)).sorted().toList();
        }
        if (wavs.isEmpty()) {
            throw new UsageException("expected room impulse responses (.wav) in " + rooms + " but found none");
        }
        List<Room> out = new ArrayList<>();
        for (Path w : wavs) {
            ImpulseResponse echo = RoomWav.readRoom(w);
            Path userFile = w.resolveSibling(echo.name() + RoomAssets.USER_SUFFIX);
            ImpulseResponse user = Files.isRegularFile(userFile) ? RoomWav.readRoom(userFile) : null;
            out.add(new Room(echo.name(), echo, user));
        }
        return out;
    }

    private List<DuplexRun.Speech> loadSpeech() throws IOException {
        List<Path> wavs;
        try {
            wavs = RoomAssets.speechFiles(speechDir);
        } catch (IOException e) {
            throw new UsageException(e.getMessage() + ": pass --speech DIR");
        }
        if (wavs.size() < 2) {
            throw new UsageException("expected at least two WAVs with .txt transcripts in " + speechDir + " but found " + wavs.size());
        }
        List<DuplexRun.Speech> out = new ArrayList<>();
        for (Path w : wavs) {
            String base = w.getFileName().toString().replaceFirst("\\.wav$", "");
            String text = Files.readString(w.resolveSibling(base + ".txt")).strip();
            out.add(new DuplexRun.Speech(base, WavFileSource.load(w, VirtualRoom.RATE), text));
        }
        return out;
    }

    /** The beds of --noise one after another (each brought to the same RMS), or generated ones. */
    private float[] noiseBed(List<DuplexRun.Speech> speech) throws IOException {
        List<float[]> beds = new ArrayList<>();
        if (noiseDir != null) {
            if (!Files.isDirectory(noiseDir)) {
                throw new UsageException("no folder of noise beds at " + noiseDir);
            }
            List<Path> wavs;
            try (Stream<Path> files = Files.list(noiseDir)) {
                wavs = files.filter(p -> p.getFileName().toString().endsWith(".wav")).sorted().toList();
            }
            if (wavs.isEmpty()) {
                throw new UsageException("expected noise-bed WAVs in " + noiseDir + " but found none");
            }
            for (Path w : wavs) {
                beds.add(RoomWav.readNoise(w));
            }
        } else {
            List<float[]> snippets = new ArrayList<>();
            for (DuplexRun.Speech s : speech) {
                short[] x = s.audio().samples();
                float[] f = new float[x.length];
                for (int i = 0; i < x.length; i++) {
                    f[i] = x[i] / 32768f;
                }
                snippets.add(f);
            }
            for (NoiseBed kind : NoiseBed.values()) {
                beds.add(NoiseBeds.make(kind, 20, 100 + kind.ordinal(), snippets));
            }
        }
        int n = 0;
        for (float[] b : beds) {
            n += b.length;
        }
        float[] all = new float[n];
        int p = 0;
        for (float[] b : beds) {
            double g = RoomMixer.noiseGain(b, -30);
            for (float v : b) {
                all[p++] = (float) (v * g);
            }
        }
        return all;
    }

    private int makeAssets() throws IOException {
        Path speechFrom = speechDir;
        List<Path> sources = new ArrayList<>();
        if (speechFrom != null) {
            sources.add(speechFrom);
        } else {
            Path fixtures = Path.of("../shared/fixtures/vosk/wav");
            sources.add(fixtures.resolve("marytts"));
            sources.add(fixtures.resolve("espeak-ng"));
        }
        List<Path> said = RoomAssets.copySpeech(sources, makeRooms.resolve("speech"));
        List<Path> roomFiles = RoomAssets.writeRooms(makeRooms.resolve("rooms"));
        List<Path> noise = RoomAssets.writeNoise(makeRooms.resolve("noise"), 7, RoomAssets.snippets(said));
        terminal.out().printf(Locale.ROOT, "wrote %d room files to %s, %d noise beds to %s, %d recordings to %s%n",
                roomFiles.size(), makeRooms.resolve("rooms"), noise.size(), makeRooms.resolve("noise"), said.size(),
                makeRooms.resolve("speech"));
        return 0;
    }
}
