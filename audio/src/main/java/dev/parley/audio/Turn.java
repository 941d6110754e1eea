package dev.parley.audio;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** The mutable state of one voice turn while the pipeline's stages work on it. */
final class Turn {
    final long id;
    final String userText;
    final CancellationSignal cancel = new CancellationSignal();
    final AtomicBoolean finished = new AtomicBoolean();
    final StringBuilder reply = new StringBuilder();
    final List<String> spoken = new CopyOnWriteArrayList<>();
    volatile boolean interrupted;
    final long speechEnd;
    final long finalTranscript;
    final AtomicLong firstText = new AtomicLong(-1);
    final AtomicLong firstSentence = new AtomicLong(-1);
    final AtomicLong firstAudio = new AtomicLong(-1);
    volatile long lastSample = -1;
    /** A speculative turn (started before the end-of-turn silence was over) whose reply must not be heard yet. */
    final boolean speculative;
    /** Open once the turn may be heard: at once for normal turns, at confirmation (or cancellation) for speculative ones. */
    private final CountDownLatch heard;
    /** The user went on speaking: the speculative reply is cancelled and retracted from the responder. */
    volatile boolean withdrawn;
    /** Whether the reply is heard: true at once for normal turns; for speculative ones known at release. */
    private final CompletableFuture<Boolean> verdict = new CompletableFuture<>();

    Turn(long id, String userText, long speechEnd, long finalTranscript) {
        this(id, userText, speechEnd, finalTranscript, false);
    }

    Turn(long id, String userText, long speechEnd, long finalTranscript, boolean speculative) {
        this.id = id;
        this.userText = userText;
        this.speechEnd = speechEnd;
        this.finalTranscript = finalTranscript;
        this.speculative = speculative;
        this.heard = new CountDownLatch(speculative ? 1 : 0);
        if (!speculative) {
            verdict.complete(true);
        }
    }

    /** Lets the reply be heard (a speculative turn was confirmed, or anything was cancelled). */
    void release() {
        verdict.complete(!withdrawn);   // withdrawn is set before a withdrawal releases the turn
        heard.countDown();
    }

    /** Completes with true once the reply is to be heard, with false when the speculation was withdrawn. */
    CompletionStage<Boolean> verdict() {
        return verdict.minimalCompletionStage();
    }

    /** Whether the reply may be heard (always for normal turns; once confirmed for speculative ones). */
    boolean released() {
        return heard.getCount() == 0;
    }

    /** Waits until the reply may be heard; then check {@code cancel}. */
    void awaitRelease() throws InterruptedException {
        heard.await();
    }

    static void stampOnce(AtomicLong stamp) {
        stamp.compareAndSet(-1, System.nanoTime());
    }

    synchronized void appendReply(String piece) {
        reply.append(piece);
    }

    synchronized String replyText() {
        return reply.toString();
    }

    TurnLatency latency() {
        return new TurnLatency(id, speechEnd, finalTranscript, firstText.get(), firstSentence.get(), firstAudio.get(),
                lastSample, interrupted);
    }

    Exchange exchange() {
        return new Exchange(id, userText, replyText().strip(), spoken, interrupted, latency());
    }
}
