package dev.parley.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code parley tokenize}: the token ids of stdin as a JSON array. */
@Command(name = "tokenize", mixinStandardHelpOptions = true,
        description = {"Reads all of stdin (exactly, including a trailing newline) and prints its token ids "
                + "as a JSON array.", "Example: printf 'Hello' | parley tokenize -m model.gguf"})
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
        try (LoadedModel loaded = LoadedModel.open(modelArgs)) {
            String text = new String(terminal.in().readAllBytes(), StandardCharsets.UTF_8);
            int[] ids = loaded.tokenizer().encode(text, bos, special);
            terminal.out().println(new ObjectMapper().writeValueAsString(ids));
        }
        return 0;
    }
}
