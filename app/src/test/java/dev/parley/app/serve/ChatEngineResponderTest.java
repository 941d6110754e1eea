package dev.parley.app.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.voice.ChatEngineResponder;
import dev.parley.app.voice.SpokenReply;
import dev.parley.audio.CancellationSignal;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.remote.RemoteEngine;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The voice loop's responder on the {@code Engine} interface: local and remote engines answer alike. */
class ChatEngineResponderTest {

    @Test
    void spokenTurnsOnTheLocalAndTheRemoteEngineAgree(@TempDir Path dir) throws Exception {
        try (ServedModel served = ServedModel.start(TestModels.tiny(dir), 512, null);
             RemoteEngine remote = new RemoteEngine(served.baseUrl(), null, null)) {
            ChatEngineResponder local = new ChatEngineResponder(served.engine, SamplingSettings.greedy(), 16, "Be brief.");
            ChatEngineResponder far = new ChatEngineResponder(remote, SamplingSettings.greedy(), 16, "Be brief.");
            for (String said : List.of("Hello there", "And then?")) {
                List<String> localPieces = new CopyOnWriteArrayList<>();
                List<String> remotePieces = new CopyOnWriteArrayList<>();
                local.respond(said, localPieces::add, new CancellationSignal());
                far.respond(said, remotePieces::add, new CancellationSignal());
                assertFalse(localPieces.isEmpty());
                assertEquals(String.join("", localPieces), String.join("", remotePieces), said);
            }
            assertEquals(local.history(), far.history());
            assertEquals(List.of(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT),
                    far.history().stream().map(m -> m.role()).toList());
            assertEquals(2, far.replies().size());
            assertEquals(local.replies().getLast().tokens(), far.replies().getLast().tokens());
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
