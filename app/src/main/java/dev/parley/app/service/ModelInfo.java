package dev.parley.app.service;

import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;

/**
 * What was loaded: for the status bar and the dashboard.
 *
 * @param path     the model file (null for a remote engine)
 * @param backend  the matrix backend (null for a remote engine)
 * @param location {@code local}, or the base URL of the remote OpenAI-compatible server
 */
public record ModelInfo(String name, Path path, String architecture, int layers, int contextSize,
                        long weightsBytes, long kvBudgetBytes, BackendKind backend, int threads, String template,
                        String location) {

    /** A model in this process. */
    public ModelInfo(String name, Path path, String architecture, int layers, int contextSize, long weightsBytes,
                     long kvBudgetBytes, BackendKind backend, int threads, String template) {
        this(name, path, architecture, layers, contextSize, weightsBytes, kvBudgetBytes, backend, threads, template,
                "local");
    }

    /** A model served by a remote server: no file, layers or memory figures are known here. */
    public static ModelInfo remote(String name, String baseUrl) {
        return new ModelInfo(name, null, "remote", 0, 0, 0, 0, null, 0, "server's", baseUrl);
    }

    /** True when replies come from a remote server. */
    public boolean isRemote() {
        return !"local".equals(location);
    }
}
