package dev.parley.app.gui.voice;

import dev.parley.audio.TurnLatency;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Pairs a voice-loop turn with the chat turn that answered it, so that the stages measured by the
 * loop (known when the audio ends) reach the chat turn's latency record (known when the reply's text
 * ends). Either half may come first: a barge-in finishes the voice turn while the reply is still
 * being generated. Halves that never find their partner are forgotten after {@value #KEPT} turns.
 */
final class VoiceTurnLink {
    static final int KEPT = 16;

    private final BiConsumer<Long, TurnLatency> measured;
    private final Map<Long, Long> answered = new HashMap<>();
    private final Map<Long, TurnLatency> finished = new HashMap<>();

    /** @param measured called with (chat turn, the voice turn's stages) once both are known */
    VoiceTurnLink(BiConsumer<Long, TurnLatency> measured) {
        this.measured = measured;
    }

    /** Voice turn {@code voiceTurn} was answered by chat turn {@code chatTurn}. */
    void answered(long voiceTurn, long chatTurn) {
        TurnLatency latency;
        synchronized (this) {
            latency = finished.remove(voiceTurn);
            if (latency == null) {
                answered.put(voiceTurn, chatTurn);
                forgetBefore(voiceTurn - KEPT);
                return;
            }
        }
        measured.accept(chatTurn, latency);
    }

    /** Voice turn {@code voiceTurn} ended (played out or interrupted) with these stages. */
    void finished(long voiceTurn, TurnLatency latency) {
        Long chatTurn;
        synchronized (this) {
            chatTurn = answered.remove(voiceTurn);
            if (chatTurn == null) {
                finished.put(voiceTurn, latency);
                forgetBefore(voiceTurn - KEPT);
                return;
            }
        }
        measured.accept(chatTurn, latency);
    }

    /** Halves waiting for a partner (for tests). */
    synchronized int waiting() {
        return answered.size() + finished.size();
    }

    private void forgetBefore(long voiceTurn) {
        answered.keySet().removeIf(t -> t < voiceTurn);
        finished.keySet().removeIf(t -> t < voiceTurn);
    }
}
