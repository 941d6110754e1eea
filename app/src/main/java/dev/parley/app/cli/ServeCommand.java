package dev.parley.app.cli;

import dev.parley.app.serve.ApiServer;
import dev.parley.app.serve.ServeOptions;
import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.tokenizer.ChatTemplate;
import java.net.InetAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code parley serve}: the OpenAI-compatible HTTP API on a local model, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serves a model over an OpenAI-compatible HTTP API (/v1/chat/completions, /v1/completions, "
                + "/v1/models, /health, /metrics) until interrupted (Ctrl+C).",
                "Binds to 127.0.0.1 by default: only programs on this machine can reach it."})
final class ServeCommand implements Callable<Integer> {
    private final Terminal terminal;

    @Mixin
    ModelArgs modelArgs;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}; 0.0.0.0 exposes the server to the network).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
            description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--api-key", paramLabel = "KEY",
            description = "Require 'Authorization: Bearer KEY' on every route but /health.")
    String apiKey;

    @Option(names = "--alias", paramLabel = "ID",
            description = "The model id clients ask for (default: the file name without .gguf).")
    String alias;

    @Option(names = "--max-body", paramLabel = "BYTES", defaultValue = "1048576",
            description = "Largest request body accepted; larger ones get 413 (default: ${DEFAULT-VALUE}).")
    int maxBody;

    @Option(names = "--http-threads", paramLabel = "N", defaultValue = "32",
            description = "HTTP worker threads; each open stream holds one (default: ${DEFAULT-VALUE}).")
    int httpThreads;

    @Option(names = "--kv-memory", paramLabel = "SIZE",
            description = "Memory budget of the batcher's paged KV cache, e.g. 512M or 2G (default: room for every "
                    + "running sequence's full context, at most 512M).")
    String kvMemory;

    @Option(names = "--step-tokens", paramLabel = "N",
            description = "Rows per batcher step: one decode token per running sequence plus prompt chunks "
                    + "(default: 128).")
    Integer stepTokens;

    @Option(names = "--max-running", paramLabel = "N",
            description = "Most sequences generating at once; more wait in the queue (default: 8).")
    Integer maxRunning;

    ServeCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public Integer call() throws Exception {
        ServeOptions options;
        try {
            options = new ServeOptions(host, port, apiKey, maxBody, httpThreads, 256);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        try (LoadedModel loaded = LoadedModel.open(modelArgs);
             LocalEngine engine = newEngine(loaded)) {
            ApiServer server = ApiServer.start(engine, options);
            CountDownLatch stopped = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                server.stop(1);
                stopped.countDown();
            }, "parley-serve-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            terminal.err().println("parley: serving " + engine.modelName() + " at " + server.baseUrl()
                    + (options.apiKey() == null ? "" : " (API key required)"));
            if (options.apiKey() == null && !InetAddress.getByName(options.host()).isLoopbackAddress()) {
                terminal.err().println("parley: warning: " + options.host() + " is reachable from other machines "
                        + "and no --api-key is set");
            }
            stopped.await();
        }
        return 0;
    }

    private LocalEngine newEngine(LoadedModel loaded) throws java.io.IOException {
        String name = alias;
        if (name == null || name.isBlank()) {
            name = modelArgs.model().getFileName().toString().replaceFirst("(?i)\\.gguf$", "");
        }
        ChatTemplate template = ChatTemplate.detect(loaded.model().gguf().getString("tokenizer.chat_template", null));
        Long kvBytes = kvMemory == null ? null : ByteSize.parse("--kv-memory", kvMemory);
        BatcherOptions batching;
        try {
            batching = LocalEngine.defaultOptions(loaded.model(), modelArgs.context(), maxRunning, stepTokens, kvBytes);
            return new LocalEngine(loaded.model(), loaded.tokenizer(), template, name, batching);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
