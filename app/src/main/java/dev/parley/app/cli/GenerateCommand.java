package dev.parley.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationRequest;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.Generator;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.Sampler;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code parley generate}: raw completion of a prompt, streamed to stdout. */
@Command(name = "generate", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.Generate.class,
        description = {"Continues a prompt as raw text (no chat template; BOS as the model's metadata says) "
                + "and streams the text to stdout; timings go to stderr.",
                "Greedy by default: set --temperature to sample."})
final class GenerateCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Mixin
    SamplingArgs samplingArgs;

    @Option(names = {"-p", "--prompt"}, required = true, paramLabel = "TEXT", description = "The text to continue.")
    String prompt;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "128",
            description = "Stop after N new tokens (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--stop", paramLabel = "TEXT",
            description = "Stop when the text contains TEXT (not printed); repeatable.")
    List<String> stops = new ArrayList<>();

    @Option(names = "--parse-special",
            description = "Read special tokens written in the prompt (e.g. <|im_start|>) as those tokens, as a chat "
                    + "template's text needs; by default they are plain text.")
    boolean parseSpecial;

    @Option(names = "--json", description = "Print one JSON object {\"prompt_ids\", \"ids\", \"text\"} instead of streaming.")
    boolean json;

    @Option(names = "--top-logits", paramLabel = "K", defaultValue = "0",
            description = "With --json: add \"top_logits\", for each generated step that step's K highest raw logits "
                    + "as [[id, logit], ...] (default: ${DEFAULT-VALUE}, none).")
    int topLogits;

    GenerateCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (maxTokens < 0) {
            throw new UsageException("--max-tokens must be >= 0, found " + maxTokens);
        }
        if (stops.stream().anyMatch(String::isEmpty)) {
            throw new UsageException("--stop needs a non-empty text");
        }
        if (topLogits < 0) {
            throw new UsageException("--top-logits must be >= 0, found " + topLogits);
        }
        if (topLogits > 0 && !json) {
            throw new UsageException("--top-logits needs --json");
        }
        var settings = samplingArgs.settings();
        PrintStream out = terminal.out();
        try (LoadedModel loaded = LoadedModel.open(modelArgs);
             CachedSession session = loaded.newSession(modelArgs.context())) {
            int[] promptIds = loaded.tokenizer().encode(prompt, true, parseSpecial);
            if (promptIds.length == 0) {
                throw new UsageException("the prompt is empty and this model adds no BOS token: nothing to continue");
            }
            Sampler sampler = Sampler.create(settings);
            TopLogitsRecorder recorder = topLogits > 0 ? new TopLogitsRecorder(sampler, topLogits) : null;
            GenerationResult result = new Generator(loaded.tokenizer()).generate(session,
                    new GenerationRequest(promptIds, maxTokens, stops), recorder != null ? recorder : sampler,
                    new CancellationToken(), event -> {
                        if (!json) {
                            stream(out, event);
                        }
                    });
            if (json) {
                Map<String, Object> object = new LinkedHashMap<>();
                object.put("prompt_ids", promptIds);
                object.put("ids", result.tokens());
                object.put("text", result.text());
                if (recorder != null) {
                    // A step that chose an end-of-generation token produced no id: only the ids' steps are kept.
                    object.put("top_logits", recorder.steps(result.tokens().length));
                }
                out.println(new ObjectMapper().writeValueAsString(object));
            } else {
                out.println();
            }
            terminal.err().println("parley: " + result.stats().summary() + " | stop: "
                    + result.reason().name().toLowerCase(java.util.Locale.ROOT)
                    + (settings.isGreedy() ? "" : " | seed: " + settings.seed()));
        }
        return 0;
    }

    static void stream(PrintStream out, TokenEvent event) {
        switch (event) {
            case TokenEvent.Token t -> out.print(t.text());
            case TokenEvent.Text t -> out.print(t.text());
            case TokenEvent.Done d -> { }
        }
        out.flush();
    }
}
