package dev.parley.app.cli.bench;

import dev.parley.app.cli.UsageException;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.frontend.PassThroughFrontEnd;

/**
 * The one place where {@code bench duplex --aec on|off} becomes the voice loop's front end. {@code off}: no
 * audio front end and half-duplex with the energy VAD (the loop before issue 14). {@code on}: WebRTC's echo
 * canceller (AEC3, high-pass, the front end's defaults) on every captured frame, the room's speaker as its
 * reference, and the loop full duplex, as {@code parley talk} runs by default.
 */
enum DuplexFrontEnd {
    ON, OFF;

    /** The voice settings for this choice. */
    VoiceSettings settings(VoiceSettings base) {
        return base.withHalfDuplex(this == OFF);
    }

    /** A new front end for one condition (the pipeline closes it); a usage error when echo cancellation cannot run. */
    AudioFrontEnd open() {
        if (this == OFF) {
            return new PassThroughFrontEnd("--aec off: no echo cancellation, half-duplex");
        }
        AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults().withEchoCancellation(true));
        if (!fe.cancelsEcho()) {
            String why = fe.description();
            fe.close();
            throw new UsageException("--aec on: the echo canceller cannot run here (" + why + "); run with --aec off");
        }
        return fe;
    }

    /** What the report says about this choice. */
    String describe() {
        return this == ON ? "WebRTC AEC3 front end, full duplex" : "no echo canceller, half-duplex";
    }
}
