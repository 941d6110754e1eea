package dev.parley.app.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short soak of CI: 300 typed turns in four concurrent chats through the batcher, a third of the
 * replies cancelled mid-way, on a tiny generated model. Heap, memory outside the heap, threads,
 * file handles and KV blocks held must stay flat ({@code parley bench soak} runs the long version).
 * Runs in the resource-levels JVM (pre-touched heap, see docs/reliability.md).
 */
class SoakResourcesTest {

    @TempDir
    Path dir;

    @Test
    void threeHundredTurnsWithCancellationsStayFlat() throws Exception {
        try (LlamaModel model = LlamaModel.load(TestModels.tiny(dir), new ModelOptions(BackendKind.VECTOR, 2))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
            List<SoakRun.Sample> seen = new ArrayList<>();
            SoakRun.Report report = new SoakRun(model, tokenizer, template,
                    new SoakRun.Options(300, 4, 0.33, 12, 256, 60, 5)).run(seen::add);
            report.samples().forEach(s -> System.out.println("soak: " + s));
            assertTrue(report.flat(), "not flat: " + report.problems());
            assertEquals(300, report.completed() + report.cancelled(), "every turn ended");
            assertTrue(report.cancelled() > 50 && report.completed() > 100, report.completed() + " completed, "
                    + report.cancelled() + " cancelled");
            assertEquals(report.samples(), seen, "each sample was reported as it was taken");
            assertEquals(List.of(0, 60, 120, 180, 240, 300), seen.stream().map(SoakRun.Sample::turns).toList());
        }
    }

    @Test
    void growthIsReported() {
        ProcessLevels flat = new ProcessLevels(100L << 20, 512L << 20, 900L << 20, 20, 40);
        ProcessLevels leaking = new ProcessLevels(200L << 20, 512L << 20, 1100L << 20, 25, 48);
        List<SoakRun.Sample> samples = List.of(new SoakRun.Sample(0, flat, 0, 0, 0, 0),
                new SoakRun.Sample(100, flat, 0, 3, 90, 10), new SoakRun.Sample(200, leaking, 9, 3, 180, 20));
        List<String> problems = SoakRun.problems(samples, 4);
        assertEquals(5, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("heap in use grew 100 MiB"), problems.get(0));
        assertTrue(problems.get(1).startsWith("memory outside the heap grew 200 MiB"), problems.get(1));
        assertEquals("threads grew from 20 to 25", problems.get(2));
        assertEquals("file handles grew from 40 to 48", problems.get(3));
        assertEquals("after turn 200, 9 KV blocks were held with no sequence running", problems.get(4));
    }
}
