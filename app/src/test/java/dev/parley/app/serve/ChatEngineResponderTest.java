package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.voice.ChatEngineResponder;
import dev.parley.app.voice.SpokenReply;
import dev.parley.audio.CancellationSignal;
import dev.parley.engine.api.ChatRequest;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The voice loop's responder on the {@code Engine} interface: local and remote engines answer alike. */
class ChatEngineResponderTest {

    /**
     * The first turn (the same prompt on both sides) answers alike. Later turns differ on a random model: the local
     * engine feeds back the ids it generated (as {@code parley talk} does), while {@code parley serve}, which gets no
     * conversation id, tokenizes the reply's text again, and with random weights that rarely gives back the same ids.
     * So the remote's second turn must equal the local engine answering the whole chat without a conversation, and
     * the local responder's must be reproducible.
     */
    @Test
    void spokenTurnsOnTheLocalAndTheRemoteEngineAgree(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.tiny(dir), 512, null);
             RemoteEngine remote = new RemoteEngine(served.baseUrl(), null, null)) {
            ChatEngineResponder local = new ChatEngineResponder(served.engine, SamplingSettings.greedy(), 16, "Be brief.");
            ChatEngineResponder again = new ChatEngineResponder(served.engine, SamplingSettings.greedy(), 16, "Be brief.");
            ChatEngineResponder far = new ChatEngineResponder(remote, SamplingSettings.greedy(), 16, "Be brief.");
            List<String> said = List.of("Hello there", "And then?");
            for (int k = 0; k < said.size(); k++) {
                List<String> localPieces = new CopyOnWriteArrayList<>();
                List<String> againPieces = new CopyOnWriteArrayList<>();
                List<String> remotePieces = new CopyOnWriteArrayList<>();
                List<ChatMessage> before = new java.util.ArrayList<>(far.history());
                before.add(ChatMessage.user(said.get(k)));
                local.respond(said.get(k), localPieces::add, new CancellationSignal());
                again.respond(said.get(k), againPieces::add, new CancellationSignal());
                far.respond(said.get(k), remotePieces::add, new CancellationSignal());
                assertFalse(localPieces.isEmpty());
                assertEquals(String.join("", localPieces), String.join("", againPieces), "reproducible: " + said.get(k));
                String whole = served.engine.chat(new ChatRequest(null, before, SamplingSettings.greedy(), 16,
                        List.of()), e -> { }).result().get(60, TimeUnit.SECONDS).text();
                assertEquals(whole, String.join("", remotePieces), said.get(k));
                if (k == 0) {
                    assertEquals(String.join("", localPieces), String.join("", remotePieces), said.get(k));
                }
            }
            assertEquals(local.history().getFirst(), far.history().getFirst());
            assertEquals(local.history().get(1), far.history().get(1));
            assertEquals(local.history().get(2), far.history().get(2));
            assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT),
                    far.history().stream().map(m -> m.role()).toList());
            assertEquals(2, far.replies().size());
            assertEquals(local.replies().getFirst().tokens(), far.replies().getFirst().tokens());
        }
    }

    @Test
    void aBargeInCancelsTheEnginesRequestAndMarksTheReply(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.tiny(dir), 512, null)) {
            ChatEngineResponder responder = new ChatEngineResponder(served.engine, SamplingSettings.greedy(), 400, null);
            CancellationSignal bargeIn = new CancellationSignal();
            bargeIn.cancel();
            List<String> pieces = new CopyOnWriteArrayList<>();
            responder.respond("Tell me everything", pieces::add, bargeIn);
            SpokenReply reply = responder.replies().getLast();
            assertTrue(reply.interrupted());
            assertEquals(StopReason.CANCELLED, reply.reason());
            assertTrue(pieces.isEmpty(), "nothing is spoken after a barge-in: " + pieces);
            assertEquals(1.0, served.metric("parley_batch_cancelled_total"));
        }
    }
}
