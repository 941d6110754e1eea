package dev.parley.audio.frontend;

/**
 * Opens the front end the settings ask for: {@link WebRtcFrontEnd}, or, where WebRTC's native library cannot load
 * (on Linux it needs {@code libpulse.so.0}: {@code apt-get install libpulse0}), Parley's linear canceller alone when
 * the settings ask for it (full duplex still, without WebRTC's filters), else a {@link PassThroughFrontEnd} whose
 * {@link AudioFrontEnd#description()} says why, and the loop then runs half-duplex.
 */
public final class FrontEnds {
    private static final System.Logger LOG = System.getLogger(FrontEnds.class.getName());
    /** The load failure is logged once per process; every pass-through still carries the reason. */
    private static final java.util.concurrent.atomic.AtomicBoolean WARNED = new java.util.concurrent.atomic.AtomicBoolean();

    private FrontEnds() {
    }

    /** The front end for {@code settings}; never throws for a missing native library. */
    public static AudioFrontEnd open(FrontEndSettings settings) {
        loadVoskFirst();
        return open(settings, () -> new WebRtcFrontEnd(settings));
    }

    /** With the WebRTC front end made by {@code webRtc} (a failing one in tests). */
    static AudioFrontEnd open(FrontEndSettings settings, java.util.function.Supplier<AudioFrontEnd> webRtc) {
        if (!settings.anyProcessing()) {
            return new PassThroughFrontEnd("audio front end off (no echo cancellation: half-duplex)");
        }
        try {
            return webRtc.get();
        } catch (LinkageError | RuntimeException e) {
            String why = "WebRTC audio processing could not load: " + cause(e) + "; on Linux install libpulse0";
            if (settings.echoCanceller() == EchoCanceller.LINEAR) {
                // Parley's canceller is pure Java: full duplex goes on without WebRTC's filters
                if (WARNED.compareAndSet(false, true)) {
                    LOG.log(System.Logger.Level.WARNING, why + "; echo cancellation by Parley's canceller alone");
                }
                return WebRtcFrontEnd.linearOnly(settings, System::nanoTime, why);
            }
            String reason = "echo cancellation unavailable (" + why + "): half-duplex";
            if (WARNED.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, reason);
            }
            return new PassThroughFrontEnd(reason);
        }
    }

    /**
     * libwebrtc-java.so exports its own {@code malloc}/{@code free}; a libvosk.so loaded after it binds to them and
     * breaks (measured here: Vosk could no longer parse its model's config, then glibc aborted with "munmap_chunk():
     * invalid pointer"). Loaded before it, Vosk keeps glibc's allocator; so Vosk's library is loaded first when it is
     * on the class path.
     */
    private static void loadVoskFirst() {
        try {
            Class.forName("org.vosk.LibVosk", true, FrontEnds.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // no Vosk here, or it cannot load: nothing to protect
        }
    }

    private static String cause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
