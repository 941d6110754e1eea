package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley bench batch} end to end on a tiny model: both tables, the Markdown file and a readable PNG. */
class BatchBenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void writesTheBatchTableThePoissonComparisonAndAChart() throws Exception {
        Path q8 = TestModels.tiny(dir);
        Path f32 = dir.resolve("tiny-f32.gguf");
        Synth.generate(SynthSpec.of(ModelShape.builtIn("tiny"), GgmlType.F32, 1), f32);
        Path report = dir.resolve("report");
        CliRun run = CliRun.of("bench", "batch", "-m", q8.toString(), "--baseline-model", f32.toString(),
                "--batches", "1,3", "--prompt-tokens", "4", "--output-tokens", "6", "--poisson-requests", "6",
                "--length-scale", "0.02", "--rate", "200", "--runs", "1", "--threads", "1", "--report", report.toString());
        assertEquals(0, run.code(), run.toString());
        String md = Files.readString(report.resolve("batch.md"));
        assertEquals(md, run.out(), "the report also goes to stdout");
        for (int batch : new int[] {1, 3}) {
            Matcher row = Pattern.compile("(?m)^\\| " + batch + " \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+)x").matcher(md);
            assertTrue(row.find(), "a row for batch " + batch + ":\n" + md);
            double baseline = Double.parseDouble(row.group(1));
            double parley = Double.parseDouble(row.group(2));
            assertTrue(baseline > 0 && parley > 0, row.group());
            // The table rounds each figure; the ratio is computed before rounding.
            assertEquals(parley / baseline, Double.parseDouble(row.group(3)), 0.05 + 0.2 * parley / baseline,
                    "the ratio column is the ratio");
        }
        assertTrue(md.contains("| static |") && md.contains("| continuous |"), md);
        assertTrue(md.contains("Continuous vs static:"), md);
        BufferedImage png = ImageIO.read(report.resolve("batch.png").toFile());
        assertNotNull(png, "a readable PNG");
        assertTrue(png.getWidth() > 600 && png.getHeight() > 300);
    }

    @Test
    void refusesBadSizesWithAReason() {
        CliRun run = CliRun.of("bench", "batch", "-m", "missing.gguf", "--batches", "0");
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("must be positive"), run.err());
    }
}
