package dev.parley.app.cli.bench;

import dev.parley.audio.Exchange;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.asr.Transcript;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What the voice loop did during a duplex run, each with its {@link System#nanoTime()}; a monitor to wait on. */
final class DuplexEvents implements VoiceListener {
    record UserTurn(long nanos, long turn, String text) {
    }

    record Stop(long nanos, long turn) {
    }

    record ReplyStart(long nanos, long turn) {
    }

    /** Full duplex: the reply of {@code turn} was held (speech over it) or resumed. */
    record Hold(long nanos, long turn, boolean held) {
    }

    private final List<UserTurn> turns = new ArrayList<>();
    private final List<Stop> stops = new ArrayList<>();
    private final List<ReplyStart> replies = new ArrayList<>();
    private final List<Hold> holds = new ArrayList<>();
    private final Set<Long> started = new HashSet<>();
    private final List<String> errors = new ArrayList<>();
    private long lastEvent = System.nanoTime();
    private boolean inTurn;

    @Override
    public void userTurn(long turn, Transcript.Final text) {
        turnAt(System.nanoTime(), turn, text.text());
    }

    synchronized void turnAt(long nanos, long turn, String text) {
        turns.add(new UserTurn(nanos, turn, text));
        inTurn = false;
        touch();
    }

    @Override
    public synchronized void partial(Transcript.Partial partial) {
        inTurn = true;          // the recognizer is hearing a turn that has not ended yet
        touch();
    }

    @Override
    public void speaking(long turn, String sentence) {
        replyAt(System.nanoTime(), turn);
    }

    synchronized void replyAt(long nanos, long turn) {
        if (started.add(turn)) {
            replies.add(new ReplyStart(nanos, turn));
        }
        touch();
    }

    @Override
    public void bargeIn(long turn) {
        stopAt(System.nanoTime(), turn);
    }

    synchronized void stopAt(long nanos, long turn) {
        stops.add(new Stop(nanos, turn));
        touch();
    }

    @Override
    public void replyHeld(long turn, boolean held) {
        holdAt(System.nanoTime(), turn, held);
    }

    synchronized void holdAt(long nanos, long turn, boolean held) {
        holds.add(new Hold(nanos, turn, held));
        touch();
    }

    @Override
    public synchronized void turnFinished(Exchange exchange) {
        touch();
    }

    @Override
    public synchronized void error(Throwable error) {
        errors.add(String.valueOf(error.getMessage()));
        touch();
    }

    private void touch() {
        lastEvent = System.nanoTime();
        notifyAll();
    }

    synchronized List<UserTurn> turns() {
        return List.copyOf(turns);
    }

    synchronized List<Stop> stops() {
        return List.copyOf(stops);
    }

    synchronized List<ReplyStart> replies() {
        return List.copyOf(replies);
    }

    synchronized List<Hold> holds() {
        return List.copyOf(holds);
    }

    synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    synchronized long lastEventNanos() {
        return lastEvent;
    }

    /** Whether a partial transcript came after the last user turn (the loop is inside a turn). */
    synchronized boolean inTurn() {
        return inTurn;
    }

    /** The first reply that started playing after {@code afterNanos}, waiting until {@code deadlineNanos}; null if none. */
    synchronized ReplyStart awaitReplyAfter(long afterNanos, long deadlineNanos) throws InterruptedException {
        while (true) {
            for (ReplyStart r : replies) {
                if (r.nanos() >= afterNanos) {
                    return r;
                }
            }
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return null;
            }
            wait(Math.min(left, 50));
        }
    }

    /** Waits on this monitor at most {@code millis} (or until any event). */
    synchronized void pause(long millis) throws InterruptedException {
        if (millis > 0) {
            wait(millis);
        }
    }
}
