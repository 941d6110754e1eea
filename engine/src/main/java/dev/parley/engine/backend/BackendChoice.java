package dev.parley.engine.backend;

import dev.parley.engine.backend.cuda.CudaStatus;
import java.util.Objects;

/**
 * The backend that will run, decided from the one asked for and what the CUDA probe found, with a line for the
 * user saying why when it is not what was asked.
 *
 * @param kind    a concrete backend: never {@link BackendKind#AUTO}
 * @param message what to tell the user (e.g. "no CUDA driver: using the CPU (vector)"); empty when nothing
 */
public record BackendChoice(BackendKind kind, String message) {

    public BackendChoice {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
        if (kind == BackendKind.AUTO) {
            throw new IllegalArgumentException("expected a concrete backend but found auto");
        }
    }

    /**
     * {@code requested} as it will run: auto becomes cuda with a GPU and vector without; cuda without a GPU fails.
     *
     * @throws BackendUnavailableException for cuda when {@code cuda} is unavailable, saying why and what to use
     *                                     instead
     */
    public static BackendChoice resolve(BackendKind requested, CudaStatus cuda) throws BackendUnavailableException {
        return switch (requested) {
            case SCALAR, VECTOR -> new BackendChoice(requested, "");
            case AUTO -> cuda.available()
                    ? new BackendChoice(BackendKind.CUDA, "using the GPU: " + cuda.describe())
                    : new BackendChoice(BackendKind.VECTOR, cuda.reason() + ": using the CPU (vector)");
            case CUDA -> {
                if (!cuda.available()) {
                    throw new BackendUnavailableException("backend cuda: expected a CUDA driver and GPU but found "
                            + cuda.reason() + "; use --backend auto or cpu");
                }
                yield new BackendChoice(BackendKind.CUDA, "using the GPU: " + cuda.describe());
            }
        };
    }
}
