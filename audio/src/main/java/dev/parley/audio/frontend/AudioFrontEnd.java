package dev.parley.audio.frontend;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.playback.PlaybackTap;

/**
 * Cleans every captured frame before the level meter, the VAD and the recognizer hear it: echo cancellation
 * against what the speaker really plays, noise suppression, high-pass filter, gain control. Capture audio is 16 kHz
 * mono in frames of any length; it is processed in 10 ms frames (a remainder waits for the next call). The render
 * reference arrives as a {@link PlaybackTap} on the sink: each piece when it is handed to the device, at any rate.
 *
 * <p>Threads: {@link #process} on one capture thread; {@link #played}/{@link #flushed} on the sink's thread;
 * {@link #stats} from anywhere. Implementations: {@link WebRtcFrontEnd} and {@link PassThroughFrontEnd}; open one
 * with {@link FrontEnds#open}.
 */
public interface AudioFrontEnd extends PlaybackTap, AutoCloseable {
    /** The capture rate the front end works at. */
    int SAMPLE_RATE = 16_000;
    /** Samples of one 10 ms frame at {@link #SAMPLE_RATE}. */
    int FRAME_SAMPLES = SAMPLE_RATE / 100;

    /**
     * Processes captured audio (16 kHz mono, any length) and returns what is ready: the processed 10 ms frames
     * completed by this call, joined (possibly empty, or longer than the input when a remainder was waiting).
     */
    PcmAudio process(PcmAudio captured);

    /** Whether echo cancellation runs: only then may the voice loop listen while it speaks (full duplex). */
    boolean cancelsEcho();

    /** One line saying what the front end does, or why it does less than asked (for logs and the UI). */
    String description();

    /**
     * The render reference's level around the capture frame processed last (the loudest 10 ms of the last 300 ms
     * fed as render), dBFS; {@code -120} when nothing plays.
     */
    double renderLevelDbfs();

    /**
     * Whether the echo canceller has converged: over at least a second of playback it removed 10 dB or more of what
     * the microphone heard (a latch), and no new run of playback is being measured against the lag it learnt (the first
     * 400 ms or so of each reply with Parley's canceller: {@code RunAligner}). Until then the echo may still be heard as
     * speech, so full duplex does not listen over a reply yet. False for front ends without echo cancellation.
     */
    boolean echoConverged();

    /** The live figures. */
    FrontEndStats stats();

    /**
     * How many samples later than the captured audio its processed form comes out of {@link #process} (0 where
     * nothing is held back): a processed sample stands for the captured one this many samples before it.
     */
    default int latencySamples() {
        return 0;
    }

    @Override
    void close();
}
