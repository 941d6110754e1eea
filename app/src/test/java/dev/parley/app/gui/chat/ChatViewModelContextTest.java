package dev.parley.app.gui.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.app.TestModels;
import dev.parley.app.service.ChatService;
import dev.parley.app.service.GenerationParams;
import dev.parley.app.service.ModelRequest;
import dev.parley.app.store.ConversationStore;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.tokenizer.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat shows a notice line where the model's memory of a long conversation was cut. Runs the
 * view model without a window: its "UI executor" is a queue this test drains, as the FX thread would.
 */
class ChatViewModelContextTest {

    @Test
    void aNoticeLineAppearsBeforeTheTurnThatDroppedOlderMessages(@TempDir Path dir) throws Exception {
        LinkedBlockingQueue<Runnable> ui = new LinkedBlockingQueue<>();
        try (ConversationStore store = ConversationStore.open(dir.resolve("c.db"));
             ChatService service = new ChatService(store)) {
            service.loadModel(new ModelRequest(TestModels.tiny(dir), BackendKind.VECTOR, 1, 128)).get(60, TimeUnit.SECONDS);
            ChatViewModel vm = new ChatViewModel(service, () -> new GenerationParams(0, 1, 12, "Be brief.", 1),
                    ui::add, () -> { }, id -> { });
            vm.modelReadyProperty().set(true);
            int turn = 0;
            while (vm.messages().stream().noneMatch(m -> m.role() == Role.SYSTEM)) {
                assertTrue(turn < 40, "a 128-position context overflows within 40 turns");
                vm.inputProperty().set("Tell me about topic " + turn++);
                vm.send();
                assertTrue(vm.busyProperty().get(), "turn " + turn + " started");
                while (vm.busyProperty().get()) {
                    Runnable r = ui.poll(60, TimeUnit.SECONDS);
                    assertFalse(r == null, "the turn finished within a minute");
                    r.run();
                }
            }
            List<MessageItem> items = vm.messages();
            int notice = -1;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).role() == Role.SYSTEM) {
                    notice = i;
                }
            }
            assertEquals(ChatViewModel.CONTEXT_NOTICE, items.get(notice).text());
            assertEquals(items.size() - 3, notice, "the notice stands right before the last question and its reply");
            assertEquals(Role.USER, items.get(notice + 1).role());
            assertEquals(Role.ASSISTANT, items.get(notice + 2).role());
        }
    }
}
