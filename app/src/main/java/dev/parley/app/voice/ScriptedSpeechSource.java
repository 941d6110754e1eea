package dev.parley.app.voice;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.capture.AudioSource;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * A "microphone" that says recorded utterances one after another, each followed by silence, for
 * demos and benchmarks of the voice loop without a sound card. It is not paced (wrap it in a
 * {@code RealTimeSource}). When gated, the silence after an utterance lasts until {@link #release()}
 * is called (the benchmark releases it when the turn's reply finished), so replies never overlap
 * the next utterance. After the last utterance and its silence the source ends.
 */
public final class ScriptedSpeechSource implements AudioSource {
    private static final int FRAME_MILLIS = 20;
    private final List<PcmAudio> utterances;
    private final int rate;
    private final int frame;
    private final int gapFrames;
    private final boolean gated;
    private final Semaphore releases = new Semaphore(0);
    private final CountDownLatch ended = new CountDownLatch(1);
    private int index;
    private int offset;
    private int silenceLeft = -1;
    private volatile boolean closed;

    /**
     * @param utterances speech, all at one sample rate (mono 16-bit)
     * @param gapMillis  silence after each utterance (at least; more while gated and not released)
     * @param gated      whether each gap lasts until {@link #release()}
     */
    public ScriptedSpeechSource(List<PcmAudio> utterances, int gapMillis, boolean gated) {
        if (utterances.isEmpty()) {
            throw new IllegalArgumentException("expected at least one utterance but found none");
        }
        this.rate = utterances.getFirst().sampleRate();
        for (PcmAudio u : utterances) {
            if (u.sampleRate() != rate) {
                throw new IllegalArgumentException("expected every utterance at " + rate + " Hz but found " + u.sampleRate());
            }
        }
        if (gapMillis < 0) {
            throw new IllegalArgumentException("expected a non-negative gap but found " + gapMillis + " ms");
        }
        this.utterances = List.copyOf(utterances);
        this.frame = rate * FRAME_MILLIS / 1000;
        this.gapFrames = gapMillis / FRAME_MILLIS;
        this.gated = gated;
    }

    @Override
    public int sampleRate() {
        return rate;
    }

    /** Lets a gated source go on to the next utterance (once per utterance). */
    public void release() {
        releases.release();
    }

    /** Waits until every utterance and its silence was delivered (or the source was closed). */
    public void awaitEnd() throws InterruptedException {
        ended.await();
    }

    @Override
    public synchronized PcmAudio read() {
        while (!closed) {
            if (silenceLeft < 0) {
                if (index >= utterances.size()) {
                    break;
                }
                PcmAudio u = utterances.get(index);
                if (offset < u.length()) {
                    int end = Math.min(u.length(), offset + frame);
                    PcmAudio piece = u.slice(offset, end);
                    offset = end;
                    return piece;
                }
                silenceLeft = gapFrames;
            }
            boolean last = index == utterances.size() - 1;
            if (silenceLeft > 0 || (gated && !last && !releases.tryAcquire())) {
                silenceLeft = Math.max(0, silenceLeft - 1);
                return PcmAudio.silence(FRAME_MILLIS, rate);
            }
            silenceLeft = -1;
            offset = 0;
            index++;
        }
        ended.countDown();
        return null;
    }

    @Override
    public void close() {
        closed = true;
        ended.countDown();
    }
}
