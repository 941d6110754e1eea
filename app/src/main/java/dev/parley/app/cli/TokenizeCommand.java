package dev.parley.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parley tokenize}: the token ids of stdin as a JSON array. Reads only the file's {@code tokenizer.*}
 * metadata, as llama.cpp's tokenizer tool does: vocabulary-only files and models of any architecture work,
 * whatever their weights (none are loaded).
 */
@Command(name = "tokenize", mixinStandardHelpOptions = true,
        description = {"Reads all of stdin (exactly, including a trailing newline) and prints its token ids "
                + "as a JSON array.", "Only the file's vocabulary is read: any GGUF file with a tokenizer Parley "
                + "supports works, also a vocabulary-only one or a model of another architecture.",
            "Example: printf 'Hello' | parley tokenize -m model.gguf"})
final class TokenizeCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Option(names = "--bos", description = "Add the BOS token (when the model's metadata asks for one).")
    boolean bos;

    @Option(names = "--special", description = "Parse special tokens written in the text, such as <s>.")
    boolean special;

    TokenizeCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        Path path = modelArgs.model();
        if (!Files.exists(path)) {
            throw new UsageException("model file not found: " + path);
        }
        if (!Files.isRegularFile(path)) {
            throw new UsageException("not a model file (expected a .gguf file): " + path);
        }
        Tokenizer tokenizer;
        try (GgufFile gguf = GgufFile.open(path)) {
            tokenizer = Tokenizer.fromGguf(gguf);
        }
        String text = new String(terminal.in().readAllBytes(), StandardCharsets.UTF_8);
        int[] ids = tokenizer.encode(text, bos, special);
        terminal.out().println(new ObjectMapper().writeValueAsString(ids));
        return 0;
    }
}
