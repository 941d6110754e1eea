package dev.parley.engine.generate;

import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.StreamingDecoder;
import dev.parley.engine.tokenizer.Tokenizer;
import dev.parley.engine.tokenizer.Vocabulary;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The generation loop: feeds the new part of the prompt, then samples, streams and feeds one token
 * at a time until an end-of-generation token, a stop string, the token limit, the end of the
 * context or a cancellation. Text is decoded with a {@link StreamingDecoder}, so no event carries a
 * broken character, and filtered by a {@link StopStringMatcher}.
 *
 * <p>The last sampled token is not fed to the session (nothing needs its logits), as in llama.cpp.
 */
public final class Generator {
    private final Tokenizer tokenizer;
    private final Vocabulary vocabulary;

    public Generator(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
        this.vocabulary = tokenizer.vocabulary();
    }

    /**
     * Runs one generation on {@code session}, telling {@code listener} about every step.
     *
     * @param sampler accepts the fed prompt tokens and every new token
     * @param cancel  checked before every step
     */
    public GenerationResult generate(CachedSession session, GenerationRequest request, Sampler sampler,
                                     CancellationToken cancel, Consumer<? super TokenEvent> listener) {
        int[] prompt = request.prompt();
        if (prompt.length > session.contextLength()) {
            return finish(listener, new int[0], 0, "", StopReason.CONTEXT_FULL, 0, new GenerationStats(0, 0, 0, 0));
        }
        int reused = session.reusePrefixOf(prompt);
        int[] toFeed = Arrays.copyOfRange(prompt, reused, prompt.length);
        if (cancel.isCancelled()) {
            return finish(listener, new int[0], 0, "", StopReason.CANCELLED, reused,
                    new GenerationStats(0, 0, 0, 0));
        }
        long start = System.nanoTime();
        float[] logits = session.ingest(toFeed);
        for (int token : toFeed) {
            sampler.accept(token);
        }
        long promptNanos = System.nanoTime() - start;

        // The ids continue the prompt, so a leading space of the first piece is text, not a space prefix.
        StreamingDecoder decoder = new StreamingDecoder(tokenizer, true, false);
        StopStringMatcher stops = new StopStringMatcher(request.stopStrings());
        StringBuilder text = new StringBuilder();
        int[] tokens = new int[Math.min(request.maxTokens(), 1024)];
        int count = 0;
        StopReason reason;
        long decodeStart = System.nanoTime();
        while (true) {
            if (cancel.isCancelled()) {
                reason = StopReason.CANCELLED;
                break;
            }
            if (count >= request.maxTokens()) {
                reason = StopReason.MAX_TOKENS;
                break;
            }
            int id = sampler.sample(logits);
            sampler.accept(id);
            if (vocabulary.isEndOfGeneration(id)) {
                reason = StopReason.EOS;
                break;
            }
            if (count == tokens.length) {
                tokens = Arrays.copyOf(tokens, tokens.length * 2);
            }
            tokens[count++] = id;
            String shown = stops.push(decoder.push(id));
            text.append(shown);
            listener.accept(new TokenEvent.Token(id, shown));
            if (stops.stopped()) {
                reason = StopReason.STOP_STRING;
                break;
            }
            if (count >= request.maxTokens()) {
                reason = StopReason.MAX_TOKENS;
                break;
            }
            if (session.position() >= session.contextLength()) {
                reason = StopReason.CONTEXT_FULL;
                break;
            }
            logits = session.ingest(new int[] {id});
        }
        if (reason != StopReason.STOP_STRING) {
            String tail = stops.push(decoder.flush());
            tail = stops.stopped() ? tail : tail + stops.flush();
            if (stops.stopped()) {
                reason = StopReason.STOP_STRING;
            }
            if (!tail.isEmpty()) {
                text.append(tail);
                listener.accept(new TokenEvent.Text(tail));
            }
        }
        long decodeNanos = System.nanoTime() - decodeStart;
        GenerationStats stats = new GenerationStats(toFeed.length, count, promptNanos, decodeNanos);
        return finish(listener, tokens, count, text.toString(), reason, reused, stats);
    }

    private static GenerationResult finish(Consumer<? super TokenEvent> listener, int[] tokens, int count, String text,
                                           StopReason reason, int reused, GenerationStats stats) {
        listener.accept(new TokenEvent.Done(reason, stats));
        return new GenerationResult(Arrays.copyOf(tokens, count), text, reason, reused, stats);
    }
}
