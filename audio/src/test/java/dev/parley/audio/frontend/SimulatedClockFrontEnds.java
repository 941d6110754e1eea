package dev.parley.audio.frontend;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.function.LongSupplier;

/** Parley's front end timed by a simulated clock, for tests that run a room faster than real time. */
public final class SimulatedClockFrontEnds {
    private SimulatedClockFrontEnds() {
    }

    /** The front end of {@code settings} on {@code clock} (ns); skips the test where WebRTC's library cannot load. */
    public static AudioFrontEnd open(FrontEndSettings settings, LongSupplier clock) {
        AudioFrontEnd probe = FrontEnds.open(settings);     // also loads Vosk's library first (see FrontEnds)
        probe.close();
        assumeTrue(probe instanceof WebRtcFrontEnd && probe.cancelsEcho(), "skipped: " + probe.description());
        return new WebRtcFrontEnd(settings, clock);
    }
}
