package dev.parley.audio.vad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Silero detectors made and closed 200 times through one {@link VadFactory}, each judging a spoken sentence: the
 * process's threads (native ones included: ONNX Runtime's pools would be native) and its resident memory outside
 * the heap come back to their level. Runs in the resource-levels JVM of the root pom (fixed, pre-touched heap, the
 * serial collector, MALLOC_ARENA_MAX=2), as the other *ResourcesTest classes do. Also records the cost per window.
 */
class SileroVadResourcesTest {
    private static final int ROUNDS = 200;

    @Test
    void twoHundredDetectorsReturnToTheStartingLevels() throws IOException {
        Path model = SileroModelFile.require();
        PcmAudio speech = WavFileSource.load(
                SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"), 16_000)
                .concat(PcmAudio.silence(600, 16_000));
        VadFactory factory = new VadFactory(m -> {
            throw new AssertionError("no fallback expected: " + m);
        });
        for (int i = 0; i < 20; i++) {
            round(factory, model, speech);  // warm up: classes, the JIT, ONNX Runtime's one-time set-up
        }
        Levels before = Levels.now();
        for (int i = 0; i < ROUNDS / 2; i++) {
            round(factory, model, speech);
        }
        Levels half = Levels.now();
        long windows = 0;
        long nanos = 0;
        for (int i = 0; i < ROUNDS / 2; i++) {
            long[] w = round(factory, model, speech);
            windows += w[0];
            nanos += w[1];
        }
        Levels after = Levels.now();
        String levels = after.since(before) + "; second half: " + after.since(half);
        System.out.printf(Locale.ROOT, "SileroVadResourcesTest, %d detectors: %s; %.3f ms per 32 ms window (%d windows,"
                + " measured while others share the machine)%n", ROUNDS, levels, nanos / 1e6 / windows, windows);
        assertTrue(after.threads() <= before.threads(), levels);
        assertTrue(after.javaThreads() <= before.javaThreads(), levels);
        // a leaked session holds the model's weights and ONNX Runtime's buffers (several MiB): 100 of them would
        // be hundreds of MiB
        assertTrue(after.offHeapResident() - half.offHeapResident() < 16L << 20, levels);
    }

    /** One detector: open, judge the sentence in 20 ms frames, close; returns {windows, nanoseconds judging}. */
    private static long[] round(VadFactory factory, Path model, PcmAudio speech) {
        try (VoiceActivityDetector v = factory.open(VadChoice.SILERO, model, VadSettings.defaults(),
                SileroVadSettings.defaults())) {
            SileroVad vad = assertInstanceOf(SileroVad.class, v);
            long t0 = System.nanoTime();
            int events = 0;
            for (int i = 0; i < speech.length(); i += 320) {
                events += vad.feed(speech.slice(i, Math.min(speech.length(), i + 320))).size();
            }
            long t = System.nanoTime() - t0;
            assertEquals(2, events, "the sentence starts and ends");
            return new long[] {vad.windowsRun(), t};
        }
    }

    /** Threads of the process (/proc/self/status: native ones too), Java threads, resident memory outside the heap. */
    private record Levels(int threads, int javaThreads, long offHeapResident) {
        static Levels now() throws IOException {
            System.gc();
            System.gc();
            List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
            int threads = Integer.parseInt(field(status, "Threads:"));
            long rss = Long.parseLong(field(status, "VmRSS:").replaceAll("\\D", "")) * 1024;
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            return new Levels(threads, ManagementFactory.getThreadMXBean().getThreadCount(), rss - heap);
        }

        private static String field(List<String> status, String name) {
            return status.stream().filter(l -> l.startsWith(name)).findFirst().orElseThrow()
                    .substring(name.length()).strip();
        }

        String since(Levels b) {
            return String.format(Locale.ROOT, "threads %d -> %d (Java %d -> %d), outside the heap %d -> %d MiB",
                    b.threads, threads, b.javaThreads, javaThreads, b.offHeapResident >> 20, offHeapResident >> 20);
        }
    }
}
