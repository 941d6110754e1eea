package dev.parley.engine.backend;

import java.io.IOException;

/** The backend asked for cannot run on this machine (e.g. cuda without a CUDA driver); the message says why. */
public class BackendUnavailableException extends IOException {
    public BackendUnavailableException(String message) {
        super(message);
    }
}
