package dev.parley.audio;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds {@code ../shared/fixtures} beside the checkout (or {@code -Dparley.shared=DIR}). Tests that
 * need it call {@link #require(String)}, which skips them with a clear message when it is absent.
 */
public final class SharedFixtures {
    private SharedFixtures() {
    }

    /** The shared folder, or null when it cannot be found. */
    public static Path sharedDir() {
        String prop = System.getProperty("parley.shared");
        if (prop != null && Files.isDirectory(Path.of(prop, "fixtures"))) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && dir != null; i++, dir = dir.getParent()) {
            Path candidate = dir.resolveSibling("shared");
            if (Files.isDirectory(candidate.resolve("fixtures"))) {
                return candidate.normalize();
            }
        }
        return null;
    }

    /** {@code fixtures/relative} inside the shared folder; skips the test when it is missing. */
    public static Path require(String relative) {
        Path shared = sharedDir();
        assumeTrue(shared != null, "skipped: ../shared/fixtures is absent (tests that need it run only beside the shared folder)");
        Path p = shared.resolve("fixtures").resolve(relative);
        assumeTrue(Files.exists(p), "skipped: fixture " + p + " is absent");
        return p;
    }

    /** Every recording of {@code fixtures/vosk/wav} (its four groups, each in name order); skips when absent. */
    public static List<Path> voskRecordings() throws IOException {
        Path wav = require("vosk/wav");
        List<Path> out = new ArrayList<>();
        for (String group : List.of("marytts", "espeak-ng", "out-of-grammar", "human-cards")) {
            try (Stream<Path> s = Files.list(wav.resolve(group))) {
                s.filter(p -> p.toString().endsWith(".wav")).sorted().forEach(out::add);
            }
        }
        return out;
    }
}
