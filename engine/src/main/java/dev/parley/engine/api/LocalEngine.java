package dev.parley.engine.api;

import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The engine of a model loaded in this process: renders chat messages with the model's chat template,
 * tokenizes them and runs every request on one shared generation loop, so concurrent callers share
 * one model. It does not own the model: close the model after this engine.
 */
public final class LocalEngine implements Engine {
    private final LlamaModel model;
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final String name;
    private final SerialRunner runner;

    /**
     * @param name          the model's name for dashboards and {@code /v1/models}
     * @param contextLength positions of the KV cache, at most the model's context
     */
    public LocalEngine(LlamaModel model, Tokenizer tokenizer, ChatTemplate template, String name, int contextLength) {
        this.model = Objects.requireNonNull(model, "model");
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.template = Objects.requireNonNull(template, "template");
        this.name = Objects.requireNonNull(name, "name");
        this.runner = new SerialRunner(model, tokenizer, Math.min(contextLength, model.config().contextLength()));
    }

    @Override
    public String modelName() {
        return name;
    }

    @Override
    public String location() {
        return "local";
    }

    public Tokenizer tokenizer() {
        return tokenizer;
    }

    public ChatTemplate template() {
        return template;
    }

    /** The most tokens one sequence can hold, prompt and reply together. */
    public int contextLength() {
        return runner.contextLength();
    }

    /** The prompt tokens of a chat: the template's rendering with the assistant's header, tokenized. */
    public int[] chatPrompt(List<ChatMessage> messages) {
        return template.encodePrompt(tokenizer, messages, true);
    }

    /** The prompt tokens of a raw completion, BOS as the model's metadata says (as {@code parley generate}). */
    public int[] completionPrompt(String text) {
        return tokenizer.encode(text, true, false);
    }

    @Override
    public EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener) {
        List<String> stops = new ArrayList<>(template.stopStrings());
        for (String s : request.stopStrings()) {
            if (!stops.contains(s)) {
                stops.add(s);
            }
        }
        int[] prompt = chatPrompt(request.messages());
        return generate(request.conversationId(), prompt, request.sampling(), request.maxTokens(), stops, listener);
    }

    /**
     * Generates after {@code prompt} (already tokenized: the server counts and checks it first).
     *
     * @param conversationId null when no cache should be kept for a next turn
     */
    public EngineHandle generate(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                                 List<String> stopStrings, Consumer<? super TokenEvent> listener) {
        long submitted = System.nanoTime();
        long[] first = {-1};
        Consumer<TokenEvent> timed = event -> {
            if (first[0] < 0 && event instanceof TokenEvent.Token) {
                first[0] = System.nanoTime();
            }
            listener.accept(event);
        };
        SerialRunner.Job job = runner.submit(prompt, sampling, maxTokens, stopStrings, timed);
        CompletableFuture<EngineResult> result = job.result().thenApply(r -> toResult(r, prompt.length, submitted,
                first[0]));
        return new EngineHandle() {
            @Override
            public void cancel() {
                job.cancel();
            }

            @Override
            public CompletableFuture<EngineResult> result() {
                return result;
            }
        };
    }

    /** Counts of the shared generation loop. */
    public RunnerStats stats() {
        return runner.stats();
    }

    private static EngineResult toResult(GenerationResult r, int promptTokens, long submitted, long firstToken) {
        long end = System.nanoTime();
        long total = end - submitted;
        long ttft = firstToken < 0 ? total : Math.min(total, firstToken - submitted);
        return new EngineResult(r.text(), r.reason(), promptTokens, r.tokens().length, ttft, total);
    }

    @Override
    public void close() {
        runner.close();
    }

    @Override
    public String toString() {
        return "LocalEngine[" + name + ", " + model + "]";
    }
}
