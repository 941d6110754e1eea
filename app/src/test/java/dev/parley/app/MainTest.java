package dev.parley.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a model: help, usage and error reporting. */
class MainTest {

    @Test
    void everyCommandHasHelp() {
        for (List<String> command : List.of(List.<String>of(), List.of("generate"), List.of("chat"),
                List.of("tokenize"), List.of("bench"), List.of("bench", "decode"), List.of("models"), List.of("models", "synth"),
                List.of("gui"), List.of("serve"))) {
            String[] args = new java.util.ArrayList<String>(command) {{ add("--help"); }}.toArray(String[]::new);
            CliRun run = CliRun.of(args);
            assertEquals(0, run.code(), run.toString());
            String usage = "Usage: parley" + (command.isEmpty() ? "" : " " + String.join(" ", command));
            assertTrue(run.out().startsWith(usage), run.toString());
        }
    }

    @Test
    void helpShowsEachCommandsOwnSamplingDefaults() {
        assertTrue(CliRun.of("generate", "--help").out().contains("greedy (default: 0)"));
        assertTrue(CliRun.of("chat", "--help").out().contains("greedy (default: 0.8)"));
    }

    @Test
    void helpPrintsTheUsage() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.code());
        assertTrue(run.out().contains("generate") && run.out().contains("chat") && run.out().contains("bench"), run.out());
    }

    @Test
    void aMissingModelFileIsOneClearLineAndExitCode2() {
        CliRun run = CliRun.of("generate", "--model", "/no/such/model.gguf", "--prompt", "Hi");
        assertEquals(2, run.code(), run.toString());
        assertEquals(List.of("parley: error: model file not found: /no/such/model.gguf"), run.errLines());
        assertEquals("", run.out());
    }

    @Test
    void aFileThatIsNotGgufIsOneLineAndExitCode2(@TempDir Path dir) throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.gguf"), "this is not a model file at all, just text");
        CliRun run = CliRun.of("tokenize", "--model", junk.toString());
        assertEquals(2, run.code(), run.toString());
        assertEquals(1, run.errLines().size(), run.toString());
        assertTrue(run.errLines().getFirst().startsWith("parley: error: "), run.toString());
    }

    @Test
    void badOptionsAreOneLineAndExitCode2() {
        CliRun unknown = CliRun.of("generate", "--model", "m.gguf", "--prompt", "x", "--bogus");
        assertEquals(2, unknown.code());
        assertEquals(List.of("parley: error: Unknown option: '--bogus' (see: parley generate --help)"), unknown.errLines());

        CliRun notANumber = CliRun.of("generate", "--model", "m.gguf", "--prompt", "x", "--temperature", "hot");
        assertEquals(2, notANumber.code());
        assertEquals(1, notANumber.errLines().size(), notANumber.toString());
        assertTrue(notANumber.errLines().getFirst().contains("--temperature"), notANumber.toString());

        CliRun topP = CliRun.of("generate", "--model", "m.gguf", "--prompt", "x", "--top-p", "1.5");
        assertEquals(2, topP.code());
        assertEquals(List.of("parley: error: top-p must be in (0, 1] (1 disables it), found 1.5"), topP.errLines());

        CliRun missing = CliRun.of("generate", "--prompt", "x");
        assertEquals(2, missing.code());
        assertEquals(1, missing.errLines().size(), missing.toString());
        assertTrue(missing.errLines().getFirst().contains("--model"), missing.toString());

        CliRun backend = CliRun.of("bench", "decode", "--model", "m.gguf", "--backend", "gpu");
        assertEquals(2, backend.code());
        assertEquals(1, backend.errLines().size(), backend.toString());
        assertTrue(backend.errLines().getFirst().contains("expected a backend of auto, cpu, cuda, scalar or vector but found gpu"), backend.toString());

        CliRun typo = CliRun.of("generate", "--model", "m.gguf", "--prompt", "x", "--temprature", "1");
        assertEquals(2, typo.code());
        assertEquals(1, typo.errLines().size(), typo.toString());
        assertTrue(typo.errLines().getFirst().contains("did you mean --temperature"), typo.toString());

        CliRun unknownCommand = CliRun.of("frobnicate");
        assertEquals(2, unknownCommand.code());
        assertEquals(1, unknownCommand.errLines().size(), unknownCommand.toString());
    }

    @Test
    void debugAddsTheStackTrace() {
        CliRun run = CliRun.of("generate", "--model", "/no/such/model.gguf", "--prompt", "Hi", "--debug");
        assertEquals(2, run.code());
        assertEquals("parley: error: model file not found: /no/such/model.gguf", run.errLines().getFirst());
        assertTrue(run.errLines().size() > 3 && run.err().contains("UsageException"), run.toString());
    }
}
