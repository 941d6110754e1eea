package dev.parley.app.service;

import dev.parley.app.store.ConversationStore;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.TokenEvent;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link CrashSafetyTest}: completes two turns, then starts a long reply and says
 * {@code STREAMING} once tokens flow, and keeps generating until it is killed.
 * Arguments: database file, model file.
 */
public final class StreamingChild {
    private StreamingChild() {
    }

    public static void main(String[] args) throws Exception {
        ConversationStore store = ConversationStore.open(Path.of(args[0]));
        ChatService service = new ChatService(store);
        service.loadModel(new ModelRequest(Path.of(args[1]), BackendKind.VECTOR, 1, 2048)).get(60, TimeUnit.SECONDS);
        long id = store.create("Before the crash").id();
        GenerationParams shortReply = new GenerationParams(0, 1, 8, "", 1);
        service.send(id, "First question", false, shortReply, e -> { }).get(60, TimeUnit.SECONDS);
        service.send(id, "Second question", true, shortReply, e -> { }).get(60, TimeUnit.SECONDS);
        System.out.println("CONVERSATION " + id);
        boolean[] said = {false};
        service.send(id, "Now a very long answer", false, new GenerationParams(0, 1, 2000, "", 1), e -> {
            if (e instanceof TokenEvent.Token && !said[0]) {
                said[0] = true;
                System.out.println("STREAMING");
                System.out.flush();
            }
        }).get(10, TimeUnit.MINUTES);
        System.out.println("FINISHED");
    }
}
