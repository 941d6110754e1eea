package dev.parley.app.cli;

import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A model opened for a command, with its tokenizer; closing it releases the mapped file. */
public record LoadedModel(LlamaModel model, Tokenizer tokenizer) implements AutoCloseable {

    /**
     * Opens the model named by {@code args}.
     *
     * @throws UsageException when the file is missing or not a regular file
     * @throws IOException    when it is not a model Parley can run (the message says why)
     */
    public static LoadedModel open(ModelArgs args) throws IOException {
        return open(args.model(), args);
    }

    /** Opens {@code path} with the backend and threads of {@code args}. */
    public static LoadedModel open(Path path, ModelArgs args) throws IOException {
        if (!Files.exists(path)) {
            throw new UsageException("model file not found: " + path);
        }
        if (!Files.isRegularFile(path)) {
            throw new UsageException("not a model file (expected a .gguf file): " + path);
        }
        LlamaModel model = LlamaModel.load(path, args.options(), QuantizeProgress.forFile(path, args.options()));
        if (!model.backendChoice().message().isEmpty()) {
            System.err.println("parley: " + model.backendChoice().message()); // e.g. auto without a GPU
        }
        try {
            return new LoadedModel(model, Tokenizer.fromGguf(model.gguf()));
        } catch (Exception e) {
            model.close();
            throw rethrow(e);
        }
    }

    /** A session with {@code requested} positions, capped at the model's context. */
    public CachedSession newSession(int requested) {
        return new CachedSession(model.newSession(Math.min(requested, model.config().contextLength())));
    }

    /** A chat on {@code session} with the model's own chat template (or a generic one); {@code system} may be null. */
    public Conversation newConversation(CachedSession session, String system) throws IOException {
        ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
        return new Conversation(tokenizer, template, session, system);
    }

    @Override
    public void close() {
        model.close();
    }

    private static IOException rethrow(Exception e) {
        if (e instanceof IOException io) {
            return io;
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        return new IOException(e.getMessage(), e);
    }
}
