package dev.parley.app.cli;

import dev.parley.audio.Exchange;
import dev.parley.audio.TurnLatency;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.asr.Transcript;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Prints a voice conversation in the terminal: live partial transcripts and errors on stderr; the
 * user's words, the reply as it is generated and each turn's stage latencies on stdout.
 */
final class VoiceTurnPrinter implements VoiceListener {
    private final PrintStream out;
    private final PrintStream err;
    private final AtomicInteger expected = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private String lastPartial = "";

    VoiceTurnPrinter(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public synchronized void partial(Transcript.Partial partial) {
        if (!partial.isEmpty() && !partial.text().equals(lastPartial)) {
            lastPartial = partial.text();
            err.println("partial: " + partial.text());
        }
    }

    @Override
    public synchronized void userTurn(long turn, Transcript.Final text) {
        lastPartial = "";
        String words = text.text().replace("[unk]", "").strip();
        if (words.isEmpty()) {
            err.println("parley: (heard nothing I could understand)");
            return;
        }
        expected.incrementAndGet();
        out.println("you: " + text.text());
        out.print("parley: ");
        out.flush();
    }

    @Override
    public synchronized void replyText(long turn, String piece) {
        out.print(piece);
        out.flush();
    }

    @Override
    public synchronized void bargeIn(long turn) {
        out.print(" [interrupted]");
    }

    @Override
    public synchronized void turnFinished(Exchange exchange) {
        out.println();
        out.println(latencyLine(exchange.latency()));
        out.flush();
        finished.incrementAndGet();
        notifyAll();
    }

    @Override
    public void deviceFault(dev.parley.audio.device.DeviceFault fault) {
        err.println("parley: " + fault.message());
    }

    @Override
    public void deviceRecovered(dev.parley.audio.device.DeviceFault.Kind kind, String device) {
        err.println("parley: the " + kind.word() + " (" + device + ") works again"
                + (kind == dev.parley.audio.device.DeviceFault.Kind.MICROPHONE ? "; listening" : ""));
    }

    @Override
    public void error(Throwable error) {
        err.println("parley: voice loop: " + error.getMessage());
    }

    /** Waits until every turn that got a reply has finished, at most {@code millis}; whether they all did. */
    synchronized boolean awaitReplies(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (finished.get() < expected.get()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** {@code latency: final_transcript=640ms first_token=700ms first_sentence=820ms first_audio=930ms last_sample=3100ms (after speech end)}. */
    static String latencyLine(TurnLatency lat) {
        StringBuilder sb = new StringBuilder("latency:");
        for (TurnLatency.Stage st : TurnLatency.Stage.values()) {
            if (st == TurnLatency.Stage.SPEECH_END) {
                continue;
            }
            double ms = lat.millisAfterSpeechEnd(st);
            String name = st == TurnLatency.Stage.FIRST_TEXT ? "first_token" : st.name().toLowerCase(Locale.ROOT);
            sb.append(' ').append(name).append('=').append(Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.0fms", ms));
        }
        sb.append(" (after speech end").append(lat.interrupted() ? "; interrupted" : "").append(')');
        return sb.toString();
    }
}
