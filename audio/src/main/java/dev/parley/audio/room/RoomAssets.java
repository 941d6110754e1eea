package dev.parley.audio.room;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.WavWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Writes a set of assets for the duplex benchmark: {@code rooms/} (echo-path impulse responses of
 * several shoebox rooms, sizes, RT60s and device latencies, each with a {@code NAME-user.wav} path
 * from the user's mouth), {@code noise/} (fan, babble and café beds) and {@code speech/} (recordings
 * with their {@code .txt} transcripts, copied from the given folders).
 */
public final class RoomAssets {
    /** The user-path companion of a room file ends with this. */
    public static final String USER_SUFFIX = "-user.wav";
    private static final int RATE = RoomWav.ROOM_RATE;
    static final double BED_SECONDS = 30;

    private RoomAssets() {
    }

    /** A room to write: the loudspeaker-to-microphone room and where the user's mouth is. */
    public record Asset(RoomSpec echoPath, Point3 mouth) {
        /** The room from the user's mouth to the microphone (no device latency). */
        public RoomSpec userPath() {
            return echoPath.withSource(echoPath.name() + "-user", mouth);
        }
    }

    /** The rooms written: laptop speaker 10-25 cm from its microphone, the user 0.5-1.2 m away. */
    public static List<Asset> rooms() {
        return List.of(
                room("office-small", 3.4, 4.1, 2.7, 0.35, 25, new Point3(1.5, 1.8, 0.95), 0.15, new Point3(1.6, 2.5, 1.2)),
                room("living-room", 5.2, 6.4, 2.6, 0.55, 60, new Point3(2.4, 3.0, 0.8), 0.2, new Point3(2.3, 3.9, 1.1)),
                room("meeting-room", 7.5, 9.0, 3.0, 0.8, 40, new Point3(3.0, 4.2, 0.9), 0.12, new Point3(3.6, 4.8, 1.25)),
                room("kitchen", 4.0, 3.2, 2.5, 0.65, 120, new Point3(1.2, 1.1, 1.0), 0.25, new Point3(2.2, 1.5, 1.5)),
                room("bedroom-soft", 3.6, 3.9, 2.5, 0.25, 15, new Point3(1.7, 1.4, 0.7), 0.1, new Point3(1.8, 2.0, 0.9)));
    }

    private static Asset room(String name, double w, double d, double h, double rt60, int latency, Point3 mic,
                                 double speakerDistance, Point3 mouth) {
        Point3 speaker = new Point3(mic.x() + speakerDistance * 0.8, mic.y() - speakerDistance * 0.6, mic.z() - 0.02);
        return new Asset(new RoomSpec(name, new Shoebox(w, d, h), speaker, mic, rt60, latency, Absorption.EYRING), mouth);
    }

    /** Writes every room's echo path and user path into {@code dir}; returns the files written. */
    public static List<Path> writeRooms(Path dir) throws IOException {
        Files.createDirectories(dir);
        ImageSourceRir rir = new ImageSourceRir(RATE);
        List<Path> out = new ArrayList<>();
        for (Asset a : rooms()) {
            RoomSpec spec = a.echoPath();
            Path echo = dir.resolve(spec.name() + ".wav");
            RoomWav.write(echo, rir.render(spec));
            out.add(echo);
            Path user = dir.resolve(spec.name() + USER_SUFFIX);
            RoomWav.write(user, rir.render(a.userPath()));
            out.add(user);
        }
        return out;
    }

    /** Writes fan, babble and café beds into {@code dir}, babble from {@code snippets} (speech at 16 kHz). */
    public static List<Path> writeNoise(Path dir, long seed, List<float[]> snippets) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (NoiseBed kind : NoiseBed.values()) {
            Path f = dir.resolve(kind.name().toLowerCase(Locale.ROOT) + ".wav");
            RoomWav.writeFloat(f, NoiseBeds.make(kind, BED_SECONDS, seed + kind.ordinal(), snippets), RATE);
            out.add(f);
        }
        return out;
    }

    /** Copies every WAV of {@code from} that has a {@code .txt} beside it, as 16 kHz mono, prefixed by its folder name. */
    public static List<Path> copySpeech(List<Path> from, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (Path src : from) {
            for (Path wav : speechFiles(src)) {
                String base = wav.getFileName().toString().replaceFirst("\\.wav$", "");
                String name = src.getFileName() + "-" + base;
                Path target = dir.resolve(name + ".wav");
                WavWriter.write(target, WavFileSource.load(wav, RATE));
                Files.copy(wav.resolveSibling(base + ".txt"), dir.resolve(name + ".txt"),
                        StandardCopyOption.REPLACE_EXISTING);
                out.add(target);
            }
        }
        return out;
    }

    /** The WAVs of {@code dir} that have a {@code .txt} transcript beside them, in name order. */
    public static List<Path> speechFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("expected a folder of speech WAVs with .txt transcripts at " + dir + " but found none");
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".wav"))
                    .filter(p -> Files.isRegularFile(p.resolveSibling(p.getFileName().toString().replaceFirst("\\.wav$", ".txt"))))
                    .sorted().toList();
        }
    }

    /** The speech of {@code wavs} as float snippets at 16 kHz (babble material). */
    public static List<float[]> snippets(List<Path> wavs) throws IOException {
        List<float[]> out = new ArrayList<>();
        for (Path w : wavs) {
            PcmAudio a = WavFileSource.load(w, RATE);
            out.add(Levels.toFloat(a.samples()));
        }
        return out;
    }
}
