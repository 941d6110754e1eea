package dev.parley.audio.vad;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the Silero VAD v5 model for tests: {@code $PARLEY_SILERO_MODEL} (set by .ci/run, which installs the npm
 * package {@code @ricky0123/vad-web@0.0.31}), else {@code -Dparley.silero.model} (the pom's default is that package's
 * {@code dist/silero_vad_v5.onnx} under {@code ../peer/node_modules} beside the checkout). Tests that need it call
 * {@link #require()}, which skips them with a clear message when it is absent.
 */
public final class SileroModelFile {
    /** The SHA-256 of the file: the official v5 model (snakers4/silero-vad v5.1.2), byte for byte. */
    public static final String SHA256 = "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f";

    private SileroModelFile() {
    }

    /** The model file, or null when none is configured or the configured one is absent. */
    public static Path find() {
        for (String candidate : new String[] {System.getenv("PARLEY_SILERO_MODEL"),
                System.getProperty("parley.silero.model")}) {
            if (candidate != null && !candidate.isBlank() && Files.isRegularFile(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    /** The model file; skips the test when it is absent. */
    public static Path require() {
        Path p = find();
        assumeTrue(p != null, "skipped: the Silero VAD v5 model is absent (install it with 'npm install --prefix DIR "
                + "@ricky0123/vad-web@0.0.31' and set PARLEY_SILERO_MODEL=DIR/node_modules/@ricky0123/vad-web/dist/"
                + "silero_vad_v5.onnx, as .ci/run does; looked at $PARLEY_SILERO_MODEL="
                + System.getenv("PARLEY_SILERO_MODEL") + " and -Dparley.silero.model="
                + System.getProperty("parley.silero.model") + ")");
        return p;
    }
}
