package dev.parley.app.service;

import dev.parley.engine.api.LocalEngine;
import dev.parley.engine.batch.BatcherMetrics;
import dev.parley.engine.batch.BatcherOptions;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loaded model with its {@link LocalEngine}: tokenizer, chat template and a batcher whose KV pool
 * holds one full context (as the single cache before it did), shared by every chat, the voice turn and
 * anything else of the app; each conversation's cache is kept between its turns while the pool has room.
 */
final class EngineState implements AutoCloseable {
    /** Sequences generating at once: a typed chat, the voice turn, and room for more. */
    private static final int MAX_RUNNING = 4;

    private final LlamaModel model;
    private final LocalEngine engine;
    private final ModelInfo info;

    private EngineState(LlamaModel model, LocalEngine engine, ModelInfo info) {
        this.model = model;
        this.engine = engine;
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
            int ctx = Math.max(2, Math.min(request.contextSize(), config.contextLength()));
            var memory = model.memoryReport(ctx, request.kvCache());
            String name = model.gguf().getString("general.name", null);
            if (name == null || name.isBlank()) {
                name = path.getFileName().toString();
            }
            int block = BatcherOptions.DEFAULT_BLOCK_SIZE;
            long perPosition = (memory.kvBytes() + ctx - 1) / ctx;
            long pool = perPosition * ((ctx + block - 1L) / block * block);
            LocalEngine engine = new LocalEngine(model, tokenizer, template, name,
                    LocalEngine.defaultOptions(model, ctx, MAX_RUNNING, null, pool));
            ModelInfo info = new ModelInfo(name, path, config.architecture().toString(), config.layers(), ctx,
                    memory.weightBytes(), memory.kvBytes(), model.backendChoice().kind(), request.threads(),
                    template.family().toString());
            return new EngineState(model, engine, info);
        } catch (IOException | RuntimeException e) {
            model.close();
            throw e;
        }
    }

    ModelInfo info() {
        return info;
    }

    /** Bytes the model holds in GPU memory (allocated once on load), or -1 on the CPU. Thread-safe. */
    long gpuBytes() {
        return model.gpuBytes();
    }

    LocalEngine engine() {
        return engine;
    }

    /** KV bytes holding tokens now: running sequences and the conversations' kept caches. Thread-safe. */
    long kvUsedBytes() {
        BatcherMetrics m = engine.metrics();
        return (long) (m.kvBlocksUsed() + m.kvBlocksCached()) * m.kvBytesPerBlock();
    }

    @Override
    public void close() {
        engine.close();
        model.close();
    }
}
