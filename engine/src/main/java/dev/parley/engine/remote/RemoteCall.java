package dev.parley.engine.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parley.engine.api.EngineHandle;
import dev.parley.engine.api.EngineResult;
import dev.parley.engine.generate.GenerationStats;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One streaming chat completion: receives the response's lines, turns {@code data:} chunks into
 * {@link TokenEvent.Text} events, measures time to first text and total time, and ends with one
 * {@link TokenEvent.Done}. A non-200 response is read whole and becomes a {@link RemoteEngineException}
 * with the server's OpenAI-shaped error. Cancelling closes the connection, which a server such as
 * {@code parley serve} takes as the client going away.
 */
final class RemoteCall implements Flow.Subscriber<String>, EngineHandle {
    private static final int MAX_ERROR_CHARS = 64 * 1024;

    private final ObjectMapper json;
    private final Consumer<? super TokenEvent> listener;
    private final long started = System.nanoTime();
    private final CompletableFuture<EngineResult> result = new CompletableFuture<>();
    private final AtomicBoolean finished = new AtomicBoolean();
    private final SseParser sse = new SseParser(this::onData);
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder errorBody = new StringBuilder();

    private volatile Flow.Subscription subscription;
    private volatile CompletableFuture<?> exchange;
    private volatile int status;
    private long firstText = -1;
    private int pieces;
    private int promptTokens;
    private int completionTokens = -1;
    private String finishReason;

    RemoteCall(ObjectMapper json, Consumer<? super TokenEvent> listener) {
        this.json = json;
        this.listener = listener;
    }

    /** The body handler for this call: remembers the status, then feeds lines to this subscriber. */
    HttpResponse.BodyHandler<Void> bodyHandler() {
        return info -> {
            status = info.statusCode();
            return HttpResponse.BodySubscribers.fromLineSubscriber(this);
        };
    }

    void exchange(CompletableFuture<?> future) {
        exchange = future;
        future.whenComplete((r, error) -> {
            if (error != null) {
                Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                fail(cause instanceof RemoteEngineException r2 ? r2
                        : new RemoteEngineException("could not reach the remote engine: " + describe(cause), cause));
            }
        });
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (finished.get()) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public synchronized void onNext(String line) {
        if (finished.get()) {
            return;
        }
        if (status != 200) {
            if (errorBody.length() < MAX_ERROR_CHARS) {
                errorBody.append(line).append('\n');
            }
            return;
        }
        try {
            sse.line(line);
        } catch (RuntimeException e) {
            cancelTransport();
            fail(e instanceof RemoteEngineException ? e
                    : new RemoteEngineException("the remote engine's stream could not be read: " + e.getMessage(), e));
        }
    }

    @Override
    public void onError(Throwable error) {
        fail(new RemoteEngineException("the remote engine's stream broke: " + describe(error), error));
    }

    @Override
    public void onComplete() {
        if (finished.get()) {
            return;
        }
        if (status != 200) {
            fail(errorOf(status, errorBody.toString()));
            return;
        }
        sse.end();
        if (!finished.get()) {
            if (finishReason == null) {
                fail(new RemoteEngineException(status, "the remote engine's stream ended without a finish reason or "
                        + "[DONE]", null, null));
            } else {
                finish(reasonOf(finishReason));
            }
        }
    }

    private void onData(String data) {
        if (data.equals("[DONE]")) {
            finish(finishReason == null ? StopReason.EOS : reasonOf(finishReason));
            cancelTransport();
            return;
        }
        JsonNode chunk;
        try {
            chunk = json.readTree(data);
        } catch (IOException e) {
            throw new RemoteEngineException(status, "expected a JSON chunk after data: but found "
                    + abbreviate(data), null, null);
        }
        if (chunk.has("error")) {
            throw errorOf(status, data);
        }
        JsonNode choice = chunk.path("choices").path(0);
        String piece = choice.path("delta").path("content").asText("");
        if (piece.isEmpty()) {
            piece = choice.path("text").asText("");
        }
        if (!piece.isEmpty()) {
            if (firstText < 0) {
                firstText = System.nanoTime();
            }
            pieces++;
            text.append(piece);
            listener.accept(new TokenEvent.Text(piece));
        }
        JsonNode reason = choice.path("finish_reason");
        if (reason.isTextual()) {
            finishReason = reason.asText();
        }
        JsonNode usage = chunk.path("usage");
        if (usage.isObject()) {
            promptTokens = usage.path("prompt_tokens").asInt(0);
            completionTokens = usage.path("completion_tokens").asInt(-1);
        }
    }

    @Override
    public void cancel() {
        if (finish(StopReason.CANCELLED)) {
            cancelTransport();
        }
    }

    @Override
    public CompletableFuture<EngineResult> result() {
        return result;
    }

    private void cancelTransport() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        CompletableFuture<?> e = exchange;
        if (e != null && s == null) {
            e.cancel(true);
        }
    }

    /** Ends the call once; false when it had already ended. */
    private synchronized boolean finish(StopReason reason) {
        if (!finished.compareAndSet(false, true)) {
            return false;
        }
        long end = System.nanoTime();
        long total = end - started;
        long ttft = firstText < 0 ? total : firstText - started;
        int generated = completionTokens >= 0 ? completionTokens : pieces;
        EngineResult r = new EngineResult(text.toString(), reason, promptTokens, generated, ttft, total);
        try {
            listener.accept(new TokenEvent.Done(reason, new GenerationStats(promptTokens, generated, ttft,
                    total - ttft)));
        } finally {
            result.complete(r);
        }
        return true;
    }

    private void fail(Throwable error) {
        if (finished.compareAndSet(false, true)) {
            result.completeExceptionally(error);
        }
    }

    private RemoteEngineException errorOf(int httpStatus, String body) {
        String message = null;
        String type = null;
        String code = null;
        try {
            JsonNode error = json.readTree(body).path("error");
            if (error.isTextual()) {
                message = error.asText();
            } else if (error.isObject()) {
                message = error.path("message").asText(null);
                type = error.path("type").asText(null);
                code = error.path("code").isNull() ? null : error.path("code").asText(null);
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: the body itself is the message
        }
        if (message == null) {
            message = body.isBlank() ? "(no message)" : abbreviate(body.strip());
        }
        return new RemoteEngineException(httpStatus, "the remote engine answered " + httpStatus + ": " + message,
                type, code);
    }

    private static StopReason reasonOf(String finish) {
        return switch (finish) {
            case "length" -> StopReason.MAX_TOKENS;
            default -> StopReason.EOS;
        };
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
