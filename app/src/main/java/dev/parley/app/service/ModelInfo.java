package dev.parley.app.service;

import dev.parley.engine.backend.BackendKind;
import java.nio.file.Path;

/** What was loaded: for the status bar and the dashboard. */
public record ModelInfo(String name, Path path, String architecture, int layers, int contextSize,
                        long weightsBytes, long kvBudgetBytes, BackendKind backend, int threads, String template) {
}
