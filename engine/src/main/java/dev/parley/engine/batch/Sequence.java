package dev.parley.engine.batch;

import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.StopStringMatcher;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.StreamingDecoder;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One request inside the batcher: its tokens (the prompt, then every generated token; the newest one is not in
 * the cache yet while decoding), how many of them the cache holds, its block table, sampler, detokenizer and
 * timings. Owned by the batcher's thread, except {@link #cancel}.
 */
final class Sequence implements BatchHandle {

    final long id;
    final BatchRequest request;
    final Consumer<? super TokenEvent> listener;
    final Sampler sampler;
    final StreamingDecoder decoder;
    final StopStringMatcher stops;
    final StringBuilder text = new StringBuilder();
    private final CompletableFuture<GenerationResult> result = new CompletableFuture<>();
    private volatile boolean cancelRequested;
    private final CancellationToken external;
    private final Runnable wake;

    int[] tokens;
    int length;          // tokens[0 .. length): prompt + generated
    final int promptLength;
    int cached;          // positions in the KV cache
    int[] table = new int[8];
    int blocks;          // table[0 .. blocks)
    long lastHash;       // chained hash of the last registered full block (valid up to registeredBlocks)
    int registeredBlocks;
    int generated;
    int reused = -1;     // prompt positions found in a cache at first admission
    int promptRows;      // prompt rows computed
    int padRows;         // static batches: padding rows still to compute before the prompt
    int slot = -1;
    long admitOrder;
    boolean inQueue = true; // counted in the batcher's queue length (new, never admitted)
    boolean ended;       // generation over (static batches keep it as padding until the batch ends)
    StopReason reason;

    final long submitNanos;
    long admitNanos;
    long firstTokenNanos;
    long lastTokenNanos;

    Sequence(long id, BatchRequest request, Tokenizer tokenizer, Consumer<? super TokenEvent> listener,
             CancellationToken external, Runnable wake) {
        this.id = id;
        this.external = external;
        this.request = request;
        this.listener = listener;
        this.wake = wake;
        this.sampler = Sampler.create(request.sampling());
        this.decoder = new StreamingDecoder(tokenizer, true, false);
        this.stops = new StopStringMatcher(request.stopStrings());
        this.promptLength = request.promptLength();
        this.tokens = new int[promptLength + Math.min(request.maxTokens(), 256) + 1];
        for (int i = 0; i < promptLength; i++) {
            tokens[i] = request.promptToken(i);
            sampler.accept(tokens[i]);
        }
        this.length = promptLength;
        this.submitNanos = System.nanoTime();
    }

    @Override
    public long id() { return id; }

    @Override
    public void cancel() {
        if (!cancelRequested && !result.isDone()) {
            cancelRequested = true;
            wake.run();
        }
    }

    /** Cancelled through the handle or through the caller's token (checked at the start of every step). */
    boolean cancelRequested() { return cancelRequested || (external != null && external.isCancelled()); }

    @Override
    public CompletableFuture<GenerationResult> result() { return result; }

    /** Rows this sequence still has to compute before its next logits. */
    int pending() { return length - cached; }

    void append(int token) {
        if (length == tokens.length) {
            tokens = Arrays.copyOf(tokens, tokens.length * 2);
        }
        tokens[length++] = token;
    }

    void addBlock(int block) {
        if (blocks == table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        table[blocks++] = block;
    }

    /** Emits an event, isolating the batcher from a listener that throws. */
    boolean emit(TokenEvent event) {
        try {
            listener.accept(event);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "request " + id + " (" + length + " tokens, " + cached + " cached, " + blocks + " blocks)";
    }
}
