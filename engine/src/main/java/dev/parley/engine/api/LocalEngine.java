package dev.parley.engine.api;

import dev.parley.engine.batch.BatchHandle;
import dev.parley.engine.batch.BatchRequest;
import dev.parley.engine.batch.Batcher;
import dev.parley.engine.batch.BatcherMetrics;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.batch.QueueFullException;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.ContextWindow;
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
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The engine of a model loaded in this process: renders chat messages with the model's chat template,
 * tokenizes them and runs every request through one {@link Batcher}, so concurrent callers (chat tabs,
 * the voice loop, clients of {@code parley serve}) share one model in shared steps. It owns the batcher
 * but not the model: close the model after this engine.
 *
 * <p>A chat with a conversation id reuses the exact token ids of that conversation's earlier turns (their prompt
 * and the reply as generated) where the new prompt's text starts with theirs, and tokenizes only the rest (see
 * {@link ConversationPrompts}): tokenizing a reply's text again need not give back the generated ids, and the
 * batcher's cached prefix would stop matching at the first reply.
 */
public final class LocalEngine implements Engine {
    private final LlamaModel model;
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final String name;
    private final Batcher batcher;
    private final ConversationPrompts prompts;

    /**
     * @param name    the model's name for dashboards and {@code /v1/models}
     * @param options how the batcher runs (its context length is the most one sequence holds)
     * @throws IllegalArgumentException when the options do not fit the model
     */
    public LocalEngine(LlamaModel model, Tokenizer tokenizer, ChatTemplate template, String name,
                       BatcherOptions options) {
        this.model = Objects.requireNonNull(model, "model");
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.template = Objects.requireNonNull(template, "template");
        this.name = Objects.requireNonNull(name, "name");
        this.batcher = new Batcher(model, tokenizer, options);
        this.prompts = new ConversationPrompts(tokenizer);
    }

    /** With {@link #defaultOptions} for {@code contextLength} positions (capped at the model's context). */
    public LocalEngine(LlamaModel model, Tokenizer tokenizer, ChatTemplate template, String name, int contextLength) {
        this(model, tokenizer, template, name, defaultOptions(model, contextLength, null, null, null));
    }

    /**
     * Batcher options for an interactive engine: {@code maxRunning} sequences (default 8), steps of
     * {@code stepTokens} rows (default 128), and a KV pool of {@code kvMemoryBytes} (default: room for
     * {@code maxRunning} full contexts, but at most 512 MiB, and at least one full context).
     *
     * @param contextLength positions one sequence may hold, capped at the model's context
     */
    public static BatcherOptions defaultOptions(LlamaModel model, int contextLength, Integer maxRunning,
                                                Integer stepTokens, Long kvMemoryBytes) {
        int ctx = Math.max(2, Math.min(contextLength, model.config().contextLength()));
        int running = maxRunning == null ? 8 : maxRunning;
        int step = stepTokens == null ? Math.max(128, running) : stepTokens;
        long oneContext = model.memoryReport(ctx, model.options().kv()).kvBytes();
        long kv = kvMemoryBytes != null ? kvMemoryBytes
                : Math.max(oneContext, Math.min(oneContext * running, 512L << 20));
        return BatcherOptions.of(running, step, kv, ctx);
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
        return batcher.options().contextLength();
    }

    /** The prompt tokens of a chat: the template's rendering with the assistant's header, tokenized. */
    public int[] chatPrompt(List<ChatMessage> messages) {
        return template.encodePrompt(tokenizer, messages, true);
    }

    /** The prompt tokens of a raw completion, BOS as the model's metadata says (as {@code parley generate}). */
    public int[] completionPrompt(String text) {
        return tokenizer.encode(text, true, false);
    }

    /** Failures (a full queue, a prompt that can never fit) complete the handle's result exceptionally. */
    @Override
    public void renameConversation(String from, String to) {
        prompts.rename(from, to);
        batcher.renameConversation(from, to);
    }

    @Override
    public EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener) {
        return chat(request, listener, null);
    }

    /** {@code cancel} (may be null) is checked by the batcher at every step. */
    @Override
    public EngineHandle chat(ChatRequest request, Consumer<? super TokenEvent> listener, CancellationToken cancel) {
        List<String> stops = new ArrayList<>(template.stopStrings());
        for (String s : request.stopStrings()) {
            if (!stops.contains(s)) {
                stops.add(s);
            }
        }
        try {
            String conversation = request.conversationId();
            String text = template.render(request.messages(), true);
            ConversationPrompts.Prompt reuse = prompts.encode(conversation, text, !template.includesBos());
            ContextWindow.Fit fit = request.contextPolicy().mustTrim(reuse.ids().length, request.maxTokens(),
                    contextLength())
                    ? ContextWindow.fit(request.messages(), template, tokenizer, contextLength(), request.maxTokens(),
                            request.contextPolicy())
                    : new ContextWindow.Fit(request.messages(), reuse.ids(), null);
            // A trimmed chat's prompt is another text: remembered under what was really fed.
            String fed = fit.trim() == null ? text : template.render(fit.messages(), true);
            EngineHandle handle = generate(conversation, fit.prompt(), request.sampling(), request.maxTokens(), stops,
                    listener, cancel, (ids, r) -> prompts.remember(conversation, fed, ids, r.tokens(), r.text()));
            if (fit.trim() == null) {
                return handle;
            }
            CompletableFuture<EngineResult> trimmed = handle.result().thenApply(r -> new EngineResult(r.text(),
                    r.reason(), r.promptTokens(), r.completionTokens(), r.timeToFirstTokenNanos(), r.totalNanos(),
                    fit.trim()));
            return new EngineHandle() {
                @Override
                public void cancel() {
                    handle.cancel();
                }

                @Override
                public CompletableFuture<EngineResult> result() {
                    return trimmed;
                }
            };
        } catch (RuntimeException e) {
            CompletableFuture<EngineResult> failed = CompletableFuture.failedFuture(e);
            return new EngineHandle() {
                @Override
                public void cancel() {
                }

                @Override
                public CompletableFuture<EngineResult> result() {
                    return failed;
                }
            };
        }
    }

    /**
     * Generates after {@code prompt} (already tokenized: the server counts and checks it first).
     *
     * @param conversationId null when no cache should be kept for a next turn
     * @throws QueueFullException       when the batcher's queue is at its bound (retry later)
     * @throws IllegalArgumentException when the prompt can never run (longer than the context or the pool)
     */
    public EngineHandle generate(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                                 List<String> stopStrings, Consumer<? super TokenEvent> listener) {
        return generate(conversationId, prompt, sampling, maxTokens, stopStrings, listener, null);
    }

    /** Like the method above, also stopping within one step of {@code cancel} (may be null) being raised. */
    public EngineHandle generate(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                                 List<String> stopStrings, Consumer<? super TokenEvent> listener,
                                 CancellationToken cancel) {
        return generate(conversationId, prompt, sampling, maxTokens, stopStrings, listener, cancel, null);
    }

    /** {@code finished} (may be null) sees the prompt and the batcher's result before the handle's result. */
    private EngineHandle generate(String conversationId, int[] prompt, SamplingSettings sampling, int maxTokens,
                                  List<String> stopStrings, Consumer<? super TokenEvent> listener,
                                  CancellationToken cancel, BiConsumer<int[], GenerationResult> finished) {
        long submitted = System.nanoTime();
        long[] first = {-1};
        Consumer<TokenEvent> timed = event -> {
            if (first[0] < 0 && event instanceof TokenEvent.Token) {
                first[0] = System.nanoTime();
            }
            listener.accept(event);
        };
        BatchHandle job = batcher.submit(new BatchRequest(conversationId, prompt, sampling, maxTokens, stopStrings),
                timed, cancel);
        CompletableFuture<EngineResult> result = job.result().thenApply(r -> {
            if (finished != null) {
                finished.accept(prompt, r);
            }
            return toResult(r, prompt.length, submitted, first[0]);
        });
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

    /** The batcher's figures: queue, running sequences, KV blocks, steps, latencies. */
    public BatcherMetrics metrics() {
        return batcher.metrics();
    }

    private static EngineResult toResult(GenerationResult r, int promptTokens, long submitted, long firstToken) {
        long end = System.nanoTime();
        long total = end - submitted;
        long ttft = firstToken < 0 ? total : Math.min(total, firstToken - submitted);
        return new EngineResult(r.text(), r.reason(), promptTokens, r.tokens().length, ttft, total);
    }

    @Override
    public void close() {
        batcher.close();
    }

    @Override
    public String toString() {
        return "LocalEngine[" + name + ", " + model + "]";
    }
}
