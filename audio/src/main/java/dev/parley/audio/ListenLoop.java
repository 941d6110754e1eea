package dev.parley.audio;

import dev.parley.audio.asr.RecognitionStream;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.capture.AudioSource;
import dev.parley.audio.vad.EnergyVad;
import dev.parley.audio.vad.VadEvent;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The capture side of the voice loop, on its own thread: reads frames, meters them, runs the
 * voice-activity detector and the recognizer, ends user turns (silence in hands-free mode, release
 * in push-to-talk) and triggers barge-in while the assistant is active.
 */
final class ListenLoop implements Runnable {
    /** What the loop needs from the pipeline. */
    interface Host {
        boolean assistantActive();

        void bargeIn();

        void userTurn(Transcript.Final text, long speechEnd, long finalStamp);

        /** Hands-free: the user has paused long enough to start a reply on {@code text} speculatively. */
        default void tentativeTurn(String text, long speechEnd, long stamp) {
        }

        /** The user spoke again after a {@link #tentativeTurn}: it is withdrawn. */
        default void tentativeWithdrawn() {
        }

        void level(double dbfs);

        void partial(Transcript.Partial partial);

        void error(Throwable t);
    }

    private final AudioSource source;
    private final RecognitionStream asr;
    private final VoiceSettings settings;
    private final Host host;
    private final EnergyVad vad;
    private final ArrayDeque<PcmAudio> preRoll = new ArrayDeque<>();
    private final StringBuilder segments = new StringBuilder();
    private volatile boolean running = true;
    private volatile boolean pushToTalk;
    private boolean wasPressed;
    private boolean heardSpeech;
    private long lastVoiced = -1;
    private double silenceMillis;
    private int preRollSamples;
    private String lastPartial = "";
    private boolean tentativeSent;

    ListenLoop(AudioSource source, RecognitionStream asr, VoiceSettings settings, Host host) {
        this.source = source;
        this.asr = asr;
        this.settings = settings;
        this.host = host;
        this.vad = new EnergyVad(settings.vad());
    }

    void setPushToTalk(boolean pressed) {
        pushToTalk = pressed;
    }

    void stop() {
        running = false;
    }

    @Override
    public void run() {
        try {
            PcmAudio frame;
            while (running && (frame = source.read()) != null) {
                onFrame(frame);
            }
            if (running && (heardSpeech || !segments.isEmpty())) {
                endTurn(lastVoiced >= 0 ? lastVoiced : System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (running) {
                host.error(e);
            }
        }
    }

    private void onFrame(PcmAudio frame) throws IOException {
        VadEvent ev = vad.process(frame);
        host.level(vad.lastLevelDbfs());
        long now = System.nanoTime();
        boolean voiced = vad.lastLevelDbfs() >= settings.vad().stopDbfs();
        boolean ptt = settings.mode() == VoiceSettings.Mode.PUSH_TO_TALK;
        boolean pressed = pushToTalk;
        boolean pressedNow = pressed && !wasPressed;
        boolean releasedNow = !pressed && wasPressed;
        wasPressed = pressed;

        if (host.assistantActive() && settings.halfDuplex()) {
            keepPreRoll(frame);
            boolean trigger = ptt ? pressedNow : vad.inSpeech();
            if (!trigger) {
                return;
            }
            host.bargeIn();
            resetUtterance();
            if (!ptt) {
                heardSpeech = true;
                lastVoiced = now;
                for (PcmAudio f : preRoll) {
                    feed(f);
                }
            }
            preRoll.clear();
            preRollSamples = 0;
            return;
        }
        if (ptt) {
            if (pressedNow && host.assistantActive()) {
                host.bargeIn();
            }
            if (pressed) {
                feed(frame);
                heardSpeech = true;
                if (voiced) {
                    lastVoiced = now;
                }
            } else if (releasedNow) {
                endTurn(lastVoiced >= 0 ? lastVoiced : now);
            }
            return;
        }
        if (ev == VadEvent.SPEECH_START && host.assistantActive()) {
            host.bargeIn();     // full duplex
        }
        if (!heardSpeech) {
            // Until speech starts the recognizer is not fed: long stretches of (digital) silence
            // skew Vosk's online mean normalisation (measured: 3 s of leading zeros turn "tell me a
            // joke" into [unk]) and decoding silence wastes CPU. The pre-roll keeps the onset.
            keepPreRoll(frame);
            if (ev != VadEvent.SPEECH_START) {
                return;
            }
            heardSpeech = true;
            for (PcmAudio f : preRoll) {
                feed(f);
            }
            preRoll.clear();
            preRollSamples = 0;
        } else {
            feed(frame);
        }
        if (voiced && vad.inSpeech()) {
            lastVoiced = now;
            silenceMillis = 0;
            if (tentativeSent) {
                tentativeSent = false;
                host.tentativeWithdrawn();
            }
        } else {
            silenceMillis += frame.durationMillis();
        }
        if (heardSpeech && !vad.inSpeech() && silenceMillis >= settings.endOfTurnSilenceMillis()) {
            endTurn(lastVoiced >= 0 ? lastVoiced : now);
        } else if (heardSpeech && !tentativeSent && settings.speculateAfterMillis() > 0
                && silenceMillis >= settings.speculateAfterMillis() && !lastPartial.isBlank()) {
            // The live transcript of everything heard so far; the final one is compared with it at the end.
            tentativeSent = true;
            host.tentativeTurn(lastPartial, lastVoiced >= 0 ? lastVoiced : now, System.nanoTime());
        }
    }

    private void keepPreRoll(PcmAudio frame) {
        preRoll.addLast(frame);
        preRollSamples += frame.length();
        long max = (long) settings.preRollMillis() * frame.sampleRate() / 1000;
        while (preRollSamples - preRoll.peekFirst().length() >= max && preRoll.size() > 1) {
            preRollSamples -= preRoll.removeFirst().length();
        }
    }

    private void feed(PcmAudio frame) throws IOException {
        Transcript t = asr.accept(frame);
        switch (t) {
            case Transcript.Final f -> {
                if (!f.isEmpty()) {
                    if (!segments.isEmpty()) {
                        segments.append(' ');
                    }
                    segments.append(f.text());
                }
            }
            case Transcript.Partial p -> {
                String shown = segments.isEmpty() ? p.text() : (segments + " " + p.text()).strip();
                if (!shown.equals(lastPartial)) {
                    lastPartial = shown;
                    host.partial(new Transcript.Partial(shown));
                }
            }
        }
    }

    private void endTurn(long speechEnd) throws IOException {
        Transcript.Final last = asr.finish();
        long stamp = System.nanoTime();
        String text = (segments + " " + last.text()).strip();
        resetUtterance();
        host.userTurn(new Transcript.Final(text), speechEnd, stamp);
    }

    private void resetUtterance() {
        asr.reset();
        segments.setLength(0);
        heardSpeech = false;
        silenceMillis = 0;
        lastVoiced = -1;
        lastPartial = "";
        tentativeSent = false;
    }
}
