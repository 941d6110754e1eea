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
 */
public record FrontEndStats(boolean echoCancelling, double erleDb, double echoReturnLossDb, int delayMs, long frames) {
    /** Figures of a front end without echo cancellation. */
    public static FrontEndStats inactive(long frames) {
        return new FrontEndStats(false, 0, 0, 0, frames);
    }
}
