package dev.parley.audio;

import java.util.List;
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

    Turn(long id, String userText, long speechEnd, long finalTranscript) {
        this.id = id;
        this.userText = userText;
        this.speechEnd = speechEnd;
        this.finalTranscript = finalTranscript;
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
