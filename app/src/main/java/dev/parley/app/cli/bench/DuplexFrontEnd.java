package dev.parley.app.cli.bench;

import dev.parley.app.cli.UsageException;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.frontend.AudioFrontEnd;
import dev.parley.audio.frontend.EchoCanceller;
import dev.parley.audio.frontend.FrontEndSettings;
import dev.parley.audio.frontend.FrontEnds;
import dev.parley.audio.frontend.PassThroughFrontEnd;

/**
 * The one place where {@code bench duplex --aec on|aec3|off} becomes the voice loop's front end. {@code off}: no
 * audio front end and half-duplex with the energy VAD (the loop before issue 14). {@code on}: the front end's
 * defaults (Parley's linear echo canceller with its residual suppressor, high-pass filter) on every captured frame,
 * the room's speaker as its reference, and the loop full duplex, as {@code parley talk} runs by default.
 * {@code aec3}: the same with WebRTC's AEC3 as the canceller.
 */
enum DuplexFrontEnd {
    ON, AEC3, OFF;

    /** The voice settings for this choice. */
    VoiceSettings settings(VoiceSettings base) {
        return base.withHalfDuplex(this == OFF);
    }

    /** A new front end for one condition (the pipeline closes it); a usage error when echo cancellation cannot run. */
    AudioFrontEnd open() {
        if (this == OFF) {
            return new PassThroughFrontEnd("--aec off: no echo cancellation, half-duplex");
        }
        AudioFrontEnd fe = FrontEnds.open(FrontEndSettings.defaults()
                .withEchoCanceller(this == AEC3 ? EchoCanceller.AEC3 : EchoCanceller.LINEAR));
        if (!fe.cancelsEcho()) {
            String why = fe.description();
            fe.close();
            throw new UsageException("--aec on: the echo canceller cannot run here (" + why + "); run with --aec off");
        }
        return fe;
    }

    /** What the report says about this choice. */
    String describe() {
        return switch (this) {
            case ON -> "Parley's linear echo canceller and residual suppressor, full duplex";
            case AEC3 -> "WebRTC AEC3 front end, full duplex";
            case OFF -> "no echo canceller, half-duplex";
        };
    }
}
