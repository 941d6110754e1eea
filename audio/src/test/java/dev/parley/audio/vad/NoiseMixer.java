package dev.parley.audio.vad;

import dev.parley.audio.PcmAudio;

/**
 * Mixes speech with a noise bed at a signal-to-noise ratio, for the tests that check the detectors in noise. The
 * speech level is the RMS over its active span ({@link SpeechSpan}), the noise level the RMS of the whole bed, so
 * "10 dB" means the talker is 10 dB above the noise while talking, however much silence surrounds the words.
 */
final class NoiseMixer {
    private NoiseMixer() {
    }

    /**
     * {@code speech} plus {@code noise} (as long as the speech or longer; the start is used) scaled so that speech
     * over noise is {@code snrDb}; samples are clipped to 16 bits.
     */
    static PcmAudio mix(PcmAudio speech, PcmAudio noise, double snrDb) {
        if (speech.sampleRate() != noise.sampleRate()) {
            throw new IllegalArgumentException("expected speech and noise at one rate but found "
                    + speech.sampleRate() + " Hz and " + noise.sampleRate() + " Hz");
        }
        if (noise.length() < speech.length()) {
            throw new IllegalArgumentException("expected at least " + speech.length() + " samples of noise but found "
                    + noise.length());
        }
        SpeechSpan span = SpeechSpan.of(speech);
        double speechRms = TestNoise.rms(speech.slice(span.from(), span.to()));
        double noiseRms = TestNoise.rms(noise.slice(0, speech.length()));
        double gain = speechRms / noiseRms / Math.pow(10, snrDb / 20);
        short[] out = new short[speech.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = TestNoise.clip(speech.samples()[i] + gain * noise.samples()[i]);
        }
        return new PcmAudio(out, speech.sampleRate());
    }
}
