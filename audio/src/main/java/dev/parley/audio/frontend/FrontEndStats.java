package dev.parley.audio.frontend;

/**
 * The front end's live figures, as the echo canceller last reported them (every half second of capture).
 *
 * @param echoCancelling   whether echo cancellation runs (false: pass-through, or turned off)
 * @param erleDb           echo return loss enhancement: how much of the echo the canceller removes, dB
 * @param echoReturnLossDb echo return loss: how much quieter the echo reaches the microphone than the speaker's
 *                         signal, dB
 * @param delayMs          the echo path delay the canceller found (playback to capture), ms
 * @param frames           10 ms capture frames processed so far
 * @param frameMicros      what the front end cost per 10 ms frame so far, median, microseconds (NaN: not measured)
 * @param frameP99Micros   the same, 99th percentile (NaN: not measured)
 */
public record FrontEndStats(boolean echoCancelling, double erleDb, double echoReturnLossDb, int delayMs, long frames,
                            double frameMicros, double frameP99Micros) {
    /** The figures a front end reports of itself (its cost is measured by whoever runs it: {@link #withCost}). */
    public FrontEndStats(boolean echoCancelling, double erleDb, double echoReturnLossDb, int delayMs, long frames) {
        this(echoCancelling, erleDb, echoReturnLossDb, delayMs, frames, Double.NaN, Double.NaN);
    }

    /** These figures with the cost per frame measured over {@code cost} (unchanged where it counted no frame). */
    public FrontEndStats withCost(FrameCost cost) {
        return cost.frames() == 0 ? this : new FrontEndStats(echoCancelling, erleDb, echoReturnLossDb, delayMs, frames,
                cost.percentileMicros(0.5), cost.percentileMicros(0.99));
    }

    /** Figures of a front end without echo cancellation. */
    public static FrontEndStats inactive(long frames) {
        return new FrontEndStats(false, 0, 0, 0, frames);
    }
}
