package dev.parley.app.service;

import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loaded model with its tokenizer, chat template and one KV cache shared by every chat (a chat
 * switched to reuses the cache as far as its tokens match). Used on the engine thread only.
 */
final class EngineState implements AutoCloseable {
    private final LlamaModel model;
    private final Tokenizer tokenizer;
    private final ChatTemplate template;
    private final CachedSession session;
    private final ModelInfo info;

    private EngineState(LlamaModel model, Tokenizer tokenizer, ChatTemplate template, CachedSession session,
                        ModelInfo info) {
        this.model = model;
        this.tokenizer = tokenizer;
        this.template = template;
        this.session = session;
        this.info = info;
    }

    static EngineState load(ModelRequest request) throws IOException {
        Path path = request.path();
        if (!Files.isRegularFile(path)) {
            throw new IOException("expected a .gguf model file but found " + (Files.exists(path) ? "a folder" : "nothing")
                    + " at " + path);
        }
        LlamaModel model = LlamaModel.load(path, new ModelOptions(request.backend(), request.threads())
                .withWeights(request.weights()).withKv(request.kvCache()));
        try {
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
            var config = model.config();
            int ctx = Math.min(request.contextSize(), config.contextLength());
            CachedSession session = new CachedSession(model.newSession(ctx));
            var memory = model.memoryReport(ctx, request.kvCache());
            String name = model.gguf().getString("general.name", null);
            if (name == null || name.isBlank()) {
                name = path.getFileName().toString();
            }
            ModelInfo info = new ModelInfo(name, path, config.architecture().toString(), config.layers(), ctx,
                    memory.weightBytes(), memory.kvBytes(), model.backendChoice().kind(), request.threads(),
                    template.family().toString());
            return new EngineState(model, tokenizer, template, session, info);
        } catch (IOException | RuntimeException e) {
            model.close();
            throw e;
        }
    }

    ModelInfo info() {
        return info;
    }

    /** Bytes the model holds in GPU memory (allocated once on load), or -1 on the CPU. */
    long gpuBytes() {
        return model.gpuBytes();
    }

    Conversation newConversation(String systemPrompt) {
        return new Conversation(tokenizer, template, session, systemPrompt);
    }

    @Override
    public void close() {
        session.close();
        model.close();
    }
}
