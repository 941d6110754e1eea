package dev.parley.audio.vad;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Makes the voice loop's detectors. {@link VadChoice#SILERO} opens a {@link SileroVad} when the model file is there
 * and ONNX Runtime loads; otherwise it falls back to an {@link EnergyVad} and tells {@code notices} why, once per
 * reason (the loop makes a detector per stream, and one line is enough). Build one factory where the voice loop is
 * built and keep it: it holds the ONNX Runtime environment its detectors share (ONNX Runtime keeps one per process
 * and frees it at exit, so the factory never closes it) and remembers that the runtime failed to load, so it does
 * not try again. Thread-safe.
 */
public final class VadFactory {
    private final Consumer<String> notices;
    private final Supplier<OrtEnvironment> runtime;
    private final Set<String> said = new HashSet<>();
    private OrtEnvironment env;
    private String runtimeFailure;
    private String lastFallback;

    /** A factory that says why it fell back through {@code notices} (for example the voice bar, or stderr). */
    public VadFactory(Consumer<String> notices) {
        this(notices, OrtEnvironment::getEnvironment);
    }

    /** As {@link #VadFactory(Consumer)}, with the way ONNX Runtime is loaded made explicit. */
    VadFactory(Consumer<String> notices, Supplier<OrtEnvironment> runtime) {
        this.notices = notices == null ? m -> { } : notices;
        this.runtime = runtime;
    }

    /**
     * A detector of {@code choice}: for {@link VadChoice#SILERO} the model at {@code sileroModel} (null: none
     * installed) with {@code silero} settings, else (or when it cannot run) an energy detector with {@code energy}.
     */
    public synchronized VoiceActivityDetector open(VadChoice choice, Path sileroModel, VadSettings energy,
                                                   SileroVadSettings silero) {
        if (choice == VadChoice.SILERO) {
            String why;
            if (sileroModel == null) {
                why = "the Silero VAD model is not installed (parley models pull silero-vad-v5)";
            } else {
                OrtEnvironment e = environment();
                if (e == null) {
                    why = runtimeFailure;
                } else {
                    try {
                        SileroVad vad = SileroVad.open(e, sileroModel, silero);
                        lastFallback = null;
                        return vad;
                    } catch (IOException | RuntimeException ex) {
                        why = ex.getMessage();
                    }
                }
            }
            lastFallback = why;
            if (said.add(why)) {
                notices.accept("voice activity: using the energy VAD because " + why);
            }
        }
        return new EnergyVad(energy);
    }

    /** Why the last {@link VadChoice#SILERO} request got the energy detector, if it did. */
    public synchronized Optional<String> lastFallback() {
        return Optional.ofNullable(lastFallback);
    }

    private OrtEnvironment environment() {
        if (env == null && runtimeFailure == null) {
            try {
                env = runtime.get();
            } catch (LinkageError | RuntimeException e) {
                // no native library for this platform, or it does not load (missing system libraries)
                runtimeFailure = "ONNX Runtime does not load on this machine (" + e + ")";
            }
        }
        return env;
    }
}
