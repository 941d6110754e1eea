package dev.parley.app.service;

import dev.parley.app.store.ConversationStore;
import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of {@link CrashSafetyTest}: loads a model and completes short turns in a new
 * conversation, one after another, until it is killed. It prints {@code CONVERSATION id} first,
 * then {@code TURN userId replyId} after each turn's two messages are stored.
 * Arguments: database file, model file, run number (it goes into the questions' text).
 */
public final class TurnWriterChild {
    private TurnWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        ConversationStore store = ConversationStore.open(Path.of(args[0]));
        ChatService service = new ChatService(store);
        service.loadModel(new ModelRequest(Path.of(args[1]), BackendKind.SCALAR, 1, 512)).get(60, TimeUnit.SECONDS);
        long id = store.create("Run " + args[2]).id();
        System.out.println("CONVERSATION " + id);
        System.out.flush();
        for (int turn = 0; ; turn++) {
            // 1 to 8 tokens: the kill lands in generation as often as in the two writes of a turn
            GenerationParams params = new GenerationParams(0.8, 1, 1 + turn % 8, "", turn);
            TurnOutcome t = service.send(id, question(args[2], turn), turn % 2 == 0, params, e -> { })
                    .get(60, TimeUnit.SECONDS);
            System.out.println("TURN " + t.user().id() + " " + t.reply().id());
            System.out.flush();
        }
    }

    static String question(String run, int turn) {
        return "Question " + turn + " of run " + run;
    }
}
