package dev.parley.app.cli;

import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.ContextPolicy;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.models.download.Downloader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code parley chat}: a multi-turn chat in the terminal that keeps the KV cache between turns. */
@Command(name = "chat", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.Chat.class,
        description = {"Chats with the model using its chat template, one line per message; the KV cache is "
                + "kept between turns.", "Without --model it uses an installed model, or downloads the catalog's "
                + "default (offline: choose a local file or the demo model).", "Ctrl-D (end of input) or /exit ends the chat; /reset starts over."})
final class ChatCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Mixin
    SamplingArgs samplingArgs;

    @Option(names = {"-s", "--system"}, paramLabel = "TEXT", description = "The system message.")
    String system;

    @Option(names = {"-n", "--max-tokens"}, paramLabel = "N", defaultValue = "512",
            description = "At most N tokens per answer (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Mixin
    StoreArgs storeArgs;

    @Option(names = "--demo", description = "Chat with the demo model (RANDOM weights: it talks nonsense), made on "
            + "first use; for trying Parley without a real model.")
    boolean demo;

    /** Makes the downloader for a first-run download; tests replace it. */
    java.util.function.Supplier<Downloader> downloaders = Downloader::new;

    @Option(names = "--context-policy", paramLabel = "POLICY", defaultValue = "keep-recent",
            description = "When the conversation outgrows the context: keep-recent (keep the system message and the "
                    + "most recent turns, up to half of the context), keep-recent:FRACTION (up to that share, 0.1 to "
                    + "0.9) or stop (answers stop when the context is full). Default: ${DEFAULT-VALUE}.")
    String contextPolicy;

    @Option(names = "--think", description = "Let a reasoning model (Qwen3) think before it answers; its <think> block "
            + "is printed. Off by default: the answer starts at once.")
    boolean think;

    @Option(names = {"-v", "--verbose"}, description = "Log on stderr how many prompt tokens each turn reused from the cache.")
    boolean verbose;

    ChatCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        if (maxTokens < 1) {
            throw new UsageException("--max-tokens must be at least 1, found " + maxTokens);
        }
        ContextPolicy policy;
        try {
            policy = ContextPolicy.parse(contextPolicy);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--context-policy: " + e.getMessage());
        }
        var settings = samplingArgs.settings();
        PrintStream out = terminal.out();
        PrintStream err = terminal.err();
        BufferedReader reader = new BufferedReader(new InputStreamReader(terminal.in(), StandardCharsets.UTF_8));
        Path modelFile = new ModelChooser(terminal, storeArgs, downloaders.get())
                .choose(modelArgs.modelOrNull(), demo, reader);
        try (LoadedModel loaded = LoadedModel.open(modelFile, modelArgs);
             CachedSession session = loaded.newSession(modelArgs.context())) {
            if (loaded.model().gguf().getBoolean("parley.synth", false)) {
                err.println("parley: DEMO MODEL: " + modelFile.getFileName()
                        + " has random weights, so its answers are nonsense (it shows the engine working)");
            }
            ChatTemplate template = ChatTemplate.detect(
                    loaded.model().gguf().getString("tokenizer.chat_template", null)).withThinking(think);
            if (template.isFallback() || verbose) {
                err.println("parley: chat template: " + template.family()
                        + (template.isFallback() ? " (the model has none Parley knows; using a generic one)" : ""));
            }
            Conversation conversation = new Conversation(loaded.tokenizer(), template, session, system);
            conversation.contextPolicy(policy);
            Sampler sampler = Sampler.create(settings);
            while (true) {
                if (terminal.interactive()) {
                    out.print("> ");
                    out.flush();
                }
                String line = reader.readLine();
                if (line == null || line.strip().equals("/exit") || line.strip().equals("/quit")) {
                    break;
                }
                if (line.isBlank()) {
                    continue;
                }
                if (line.strip().equals("/reset")) {
                    conversation.reset();
                    sampler.reset();
                    err.println("parley: conversation reset");
                    continue;
                }
                GenerationResult result = conversation.reply(line, sampler, maxTokens, new CancellationToken(),
                        event -> GenerateCommand.stream(out, event));
                out.println();
                out.flush();
                if (verbose) {
                    err.println("parley: reused " + result.reusedTokens() + " of "
                            + (result.reusedTokens() + result.stats().promptTokens()) + " prompt tokens from the cache");
                }
                err.println("parley: " + result.stats().summary() + " | stop: "
                        + result.reason().name().toLowerCase(Locale.ROOT));
                conversation.lastTrim().ifPresent(trim -> err.println("parley: older messages were dropped from the "
                        + "model's memory to make room (" + trim.droppedMessages() + " messages, " + trim.tokensBefore()
                        + " -> " + trim.tokensAfter() + " prompt tokens)"));
                if (result.reason() == StopReason.CONTEXT_FULL) {
                    err.println("parley: the conversation fills the context of " + session.contextLength()
                            + " tokens: /reset starts over (or raise --context)");
                }
            }
            if (terminal.interactive()) {
                out.println();
            }
        }
        return 0;
    }
}
