package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A tool for tuning the full-duplex policy, not part of the suite: `bench duplex`'s rooms, speech and noise
 * ({@code scripts/make-duplex-assets.sh DIR}) run through an {@link OfflineDuplexRoom}, so a change is measured on
 * every room and SNR in minutes (the same on every run when nothing else loads the machine: its listen thread and the
 * room's clock are not in lock step), before the real-time benchmark confirms it. Each case is a
 * {@link DuplexCase} with a noise bed ({@code -Dbed=NAME}, a file of {@code noise/} without .wav; the first, babble, by
 * default), "goodbye" asked, and {@code -Dbarge=NAME} (a speech file's name without .wav, or {@code none}) {@code
 * -DbargeAt=MS} into the reply; {@code -DnoiseFrom=MS} starts the room that far into the bed;
 * {@code -Dsnr=LIST} the SNRs (20,10 by default; the bed's level is set against the question's RMS with its
 * edges, so a case's SNR is a few dB above the benchmark's, which sets it against the speech's active level).
 * It prints, per room and SNR, where the loop held, resumed and stopped the reply, ms from the barge-in's onset.
 * {@code -Ddump=DIR} writes each case's audio ({@link OfflineDuplexRoom#dump}) and the barge-in's onset there, for
 * {@code ReplayCanceller}; {@code -DquestionAt=MS} asks the question at another moment than 3 s (before the cue),
 * {@code -Dquestion=NAME} another recording than {@code espeak-ng-10-goodbye} (the benchmark's seed 4 asks
 * {@code marytts-10-goodbye}); {@code -DbenchLevels=true} levels the recordings, the echo and the bed as the benchmark
 * does (every recording at the question's active speech level, the echo's 6 dB above it, the bed's RMS the SNR below
 * it) instead of the sweep's own levels, under which the echo's level over a barge-in depended on which recordings
 * were asked (docs/benchmarks.md, session 37).
 * <pre>
 * ./mvnw -o -pl audio surefire:test -Dtest=OfflineDuplexSweep -Dparley.jvm.flags="... -Dparley.duplex.assets=/tmp/duplex
 *     -Dbarge=espeak-ng-06-how-are-you -DbargeAt=583"
 * </pre>
 */
@EnabledIfSystemProperty(named = "parley.duplex.assets", matches = ".+",
        disabledReason = "a tuning tool: set -Dparley.duplex.assets=DIR (scripts/make-duplex-assets.sh DIR)")
class OfflineDuplexSweep {
    @Test
    void sweep() throws Exception {
        Path dir = Path.of(System.getProperty("parley.duplex.assets"));
        String bargeName = System.getProperty("barge", "espeak-ng-06-how-are-you");
        int bargeAt = Integer.getInteger("bargeAt", 583);
        int seconds = Integer.getInteger("seconds", bargeName.equals("none") ? 40 : 20);
        String questionName = System.getProperty("question", "espeak-ng-10-goodbye");
        short[] question = DuplexCase.load(dir.resolve("speech/" + questionName + ".wav"));
        short[] barge = bargeName.equals("none") ? new short[16_000]
                : DuplexCase.load(dir.resolve("speech/" + bargeName + ".wav"));
        String bed = System.getProperty("bed");
        Path noiseFile;
        try (Stream<Path> s = Files.list(dir.resolve("noise"))) {
            noiseFile = s.filter(p -> p.getFileName().toString().equals(bed == null ? p.getFileName().toString()
                    : bed + ".wav")).filter(p -> p.toString().endsWith(".wav")).sorted().findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("expected a noise bed " + (bed == null ? ""
                            : bed + ".wav ") + "in " + dir.resolve("noise") + " but found none"));
        }
        short[] noise = DuplexCase.rotated(DuplexCase.load(noiseFile), Integer.getInteger("noiseFrom", 0));
        List<Path> rooms;
        try (Stream<Path> s = Files.list(dir.resolve("rooms"))) {
            rooms = s.filter(p -> p.toString().endsWith(".wav") && !p.toString().endsWith("-user.wav")).sorted().toList();
        }
        StringBuilder report = new StringBuilder();
        for (Path roomFile : rooms) {
            String name = roomFile.getFileName().toString().replace(".wav", "");
            double[] ir = DuplexCase.unit(DuplexCase.load(roomFile));
            double[] userIr = DuplexCase.unit(DuplexCase.load(roomFile.resolveSibling(name + "-user.wav")));
            for (double snr : java.util.Arrays.stream(System.getProperty("snr", "20,10").split(","))
                    .mapToDouble(Double::parseDouble).toArray()) {
                DuplexCase c = new DuplexCase(ir, userIr, noise, snr, question, barge, bargeAt, seconds);
                OfflineDuplexRoom room = c.run();
                assertTrue(room.errors().isEmpty(), room.errors().toString());
                int on = c.bargeOnsetMillis(room);
                String dump = System.getProperty("dump");
                if (dump != null) {
                    Files.createDirectories(Path.of(dump));
                    room.dump(Path.of(dump, bargeName + "-" + name + "-" + (int) snr));
                    Files.writeString(Path.of(dump, bargeName + "-" + name + "-" + (int) snr + ".onset"),
                            Integer.toString(on));
                }
                StringBuilder ev = new StringBuilder();
                for (OfflineDuplexRoom.Event e : room.events()) {
                    ev.append(e.what()).append('@').append(e.atMillis() - on).append(' ');
                }
                report.append(String.format(java.util.Locale.ROOT, "%-13s SNR %2.0f: reply at %d ms: %s%n", name, snr,
                        room.replyStartedMillis(), room.replyStartedMillis() < 0 ? "the question made no reply" : ev));
            }
        }
        System.out.println("offline duplex sweep, " + noiseFile.getFileName() + ", " + bargeName + " " + bargeAt
                + " ms into the reply (times from its onset):\n" + report);
    }
}
