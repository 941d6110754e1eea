package dev.parley.audio;

import dev.parley.audio.playback.AudioSink;
import dev.parley.audio.text.SpeechNormalizer;
import dev.parley.audio.tts.SpeechSynthesizer;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The speaking end of the voice loop, on its own thread ({@code parley-speak}): each reply's
 * sentences in order through the {@link SpeechNormalizer} and the synthesizer into the sink, with
 * the first-audio and last-sample stamps. A speculative turn's audio waits until the turn is released
 * (confirmed or cancelled); a cancelled turn's sentences are dropped.
 */
final class SpeakStage {
    /** What the stage reports to the pipeline (on the sink's or the stage's thread). */
    interface Host {
        /** The first audio of {@code sentence} is being played. */
        void speaking(Turn turn, String sentence);

        /** The last sample of the reply was played. */
        void played(Turn turn);

        void error(Exception e);
    }

    private sealed interface Item permits Sentence, EndOfReply, Cue, Stop {
    }

    /** A sound of the loop's own, not a reply's (the listening cue), played no sooner than {@code atNanos}. */
    private record Cue(PcmAudio audio, long atNanos) implements Item {
    }

    private record Sentence(Turn turn, String text) implements Item {
    }

    private record EndOfReply(Turn turn) implements Item {
    }

    private record Stop() implements Item {
    }

    private final SpeechSynthesizer synthesizer;
    private final AudioSink sink;
    private final Host host;
    private final SpeechNormalizer normalizer = new SpeechNormalizer();
    private final BlockingQueue<Item> queue;
    private volatile boolean running;
    private Thread thread;

    SpeakStage(SpeechSynthesizer synthesizer, AudioSink sink, int capacity, Host host) {
        this.synthesizer = synthesizer;
        this.sink = sink;
        this.host = host;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    void start() {
        running = true;
        thread = Thread.ofPlatform().name("parley-speak").daemon().start(this::run);
    }

    /** Queues a sentence of {@code turn}'s reply; blocks while the queue is full, gives up when the turn is cancelled. */
    void sentence(Turn turn, String text) throws InterruptedException {
        put(new Sentence(turn, text), turn);
    }

    /** Queues the end of {@code turn}'s reply: {@link Host#played} follows its last sample. */
    void endOfReply(Turn turn) throws InterruptedException {
        put(new EndOfReply(turn), turn);
    }

    /**
     * Queues a sound of the loop's own (not a reply) to play next, {@code delayMillis} from now (what is queued behind it
     * waits); dropped where the queue is full.
     */
    void cue(PcmAudio audio, long delayMillis) {
        queue.offer(new Cue(audio, System.nanoTime() + delayMillis * 1_000_000L));
    }

    /** Drops what is queued and ends the thread (waits for it a few seconds at most). */
    void stop() {
        running = false;
        queue.clear();
        queue.offer(new Stop());
        VoicePipeline.join(thread);
    }

    private void put(Item item, Turn t) throws InterruptedException {
        while (running && !t.cancel.isCancelled()) {
            if (queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    private void run() {
        try {
            while (running) {
                switch (queue.take()) {
                    case Stop s -> {
                        return;
                    }
                    case Sentence s -> speak(s);
                    case Cue c -> {
                        long wait = c.atNanos() - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                        if (running) {
                            sink.play(c.audio());
                        }
                    }
                    case EndOfReply e -> {
                        Turn t = e.turn();
                        t.awaitRelease();
                        if (!t.cancel.isCancelled()) {
                            sink.mark(() -> {
                                if (!t.cancel.isCancelled()) {
                                    t.lastSample = System.nanoTime();
                                    host.played(t);
                                }
                            });
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void speak(Sentence s) {
        Turn t = s.turn();
        String text = normalizer.normalize(s.text());
        if (t.cancel.isCancelled() || text.isBlank()) {
            return;
        }
        boolean[] first = {true};
        try {
            synthesizer.synthesize(text, chunk -> {
                try {
                    t.awaitRelease();           // a speculative reply is unheard until its turn is confirmed
                    if (first[0] && !t.cancel.isCancelled()) {
                        first[0] = false;
                        sink.mark(() -> {
                            if (!t.cancel.isCancelled()) {
                                Turn.stampOnce(t.firstAudio);
                                t.spoken.add(s.text());
                                host.speaking(t, s.text());
                            }
                        });
                    }
                    if (t.cancel.isCancelled()) {
                        return;
                    }
                    sink.play(chunk);
                    if (t.cancel.isCancelled()) {
                        // barge-in raced with this chunk; only this thread queues audio, so nothing newer is lost
                        sink.stopNow();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    t.cancel.cancel();
                }
            }, t.cancel);
        } catch (IOException | RuntimeException e) {
            host.error(e);
        }
    }
}
