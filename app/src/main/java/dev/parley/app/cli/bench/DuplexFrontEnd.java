package dev.parley.app.cli.bench;

import dev.parley.app.cli.UsageException;
import dev.parley.audio.VoiceSettings;

/**
 * The one place where {@code bench duplex --aec on|off} becomes the voice loop's front end. {@code off}
 * is the loop as it is today: half-duplex, the energy VAD watching for barge-in while a reply plays.
 * {@code on} needs the echo-cancelling front end (WebRTC AEC3 + full duplex), which this build does not
 * have yet.
 */
enum DuplexFrontEnd {
    ON, OFF;

    /** The voice settings for this choice, or a usage error when the build cannot provide it. */
    VoiceSettings settings(VoiceSettings base) {
        return switch (this) {
            case OFF -> base;
            case ON -> throw new UsageException("--aec on: the echo-cancelling front end (WebRTC AEC3, full duplex) is not "
                    + "available in this build; run with --aec off (the half-duplex loop with the energy VAD)");
        };
    }

    /** What the report says about this choice. */
    String describe() {
        return this == ON ? "echo-cancelling front end, full duplex" : "no echo canceller, half-duplex energy VAD";
    }
}
