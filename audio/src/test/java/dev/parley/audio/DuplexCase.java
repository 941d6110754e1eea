package dev.parley.audio;

import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.frontend.SyntheticRoom;
import dev.parley.audio.playback.ListeningCue;
import dev.parley.audio.room.BlockConvolver;
import dev.parley.audio.room.Levels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One case of `bench duplex`'s kind in an {@link OfflineDuplexRoom}: a noise bed from the first moment at an SNR
 * below the user, the listening cue, a question at 3 s, a reply of fixture sentences whose echo is 6 dB above the
 * user, and a barge-in some time into the reply. The question, the barge-in and the bed reach the microphone through
 * the user's path of the room, the reply through its echo path. Shared by {@link OfflineDuplexSweep} and the tests
 * that pin what it found.
 *
 * @param echoPath the room from the loudspeaker to the microphone (its leading zeros: the device's latency)
 * @param userPath the room from the user's mouth to the microphone
 * @param noise    the bed, from the start
 * @param snrDb    the question's level over the bed's, dB
 * @param question what the user asks at {@link #QUESTION_MILLIS}
 * @param barge    what the user says {@code bargeAt} ms into the first reply (silence for none)
 * @param bargeAt  ms into the first reply
 * @param seconds  the room's length
 * @param benchLevels whether the recordings, the echo and the bed are levelled as `bench duplex` levels them (every
 *                 user recording at the question's active speech level, the echo's active level 6 dB above it, the
 *                 bed's RMS {@code snrDb} below it) instead of the sweep's own levels (the echo 6 dB over the
 *                 question's plain RMS, the barge-in as recorded), which the older pinned tests were found with
 */
record DuplexCase(double[] echoPath, double[] userPath, short[] noise, double snrDb, short[] question, short[] barge,
                  int bargeAt, int seconds, boolean benchLevels) {
    /** A case at the sweep's own levels, or at `bench duplex`'s where {@code -DbenchLevels=true} asks for them. */
    DuplexCase(double[] echoPath, double[] userPath, short[] noise, double snrDb, short[] question, short[] barge,
               int bargeAt, int seconds) {
        this(echoPath, userPath, noise, snrDb, question, barge, bargeAt, seconds, Boolean.getBoolean("benchLevels"));
    }

    /** When the user asks, ms from the start (the listening cue plays at {@link ListeningCue#DELAY_MILLIS}). */
    static final int QUESTION_MILLIS = 3000;
    private static final String[] REPLY = {"02-tell-me-a-joke", "03-what-time-is-it", "09-hello", "10-goodbye",
        "01-what-is-the-weather-like-today", "02-tell-me-a-joke", "03-what-time-is-it", "09-hello"};

    /** Runs the case; the room that ran holds the turns and what the loop asked of the reply. */
    OfflineDuplexRoom run() throws Exception {
        return run((room, userRms) -> { });
    }

    /**
     * Runs the case with more sounds placed in the room by {@code more} (given the room and the gain that brings a
     * sound through the user's path to the question's level).
     */
    OfflineDuplexRoom run(java.util.function.BiConsumer<OfflineDuplexRoom, Double> more) throws Exception {
        List<PcmAudio> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String name : REPLY) {
            parts.add(WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/" + name + ".wav"), 16_000));
            parts.add(PcmAudio.silence(150, 16_000));
            text.append(Files.readString(SharedFixtures.require("vosk/wav/marytts/" + name + ".txt"))).append(' ');
        }
        short[] reply = PcmAudio.join(parts, 16_000).samples();
        short[] q = convolve(question, userPath);
        short[] b = convolve(barge, userPath);
        double userRms = SyntheticRoom.rms(q, 0, q.length);
        short[] echo = convolve(reply, echoPath);
        double echoGain = 2 * userRms / SyntheticRoom.rms(echo, 0, reply.length);   // echo 6 dB above the user
        int noiseHeard = Math.min(noise.length, seconds * 16_000);
        double noiseGain = userRms / SyntheticRoom.rms(noise, 0, noiseHeard) * Math.pow(10, -snrDb / 20);
        if (benchLevels) {
            // as `bench duplex` levels them: every user recording at one active speech level (the question's), the
            // echo's active level 6 dB above it, the bed's RMS snrDb below it
            double speech = activeDb(q);
            double barged = activeDb(b);
            b = barged <= Levels.SILENCE_DB ? b : scaled(b, Levels.gain(barged, speech));     // none: silence
            echoGain = Levels.gain(activeDb(echo), speech + 6);
            noiseGain = Levels.gain(Levels.rmsDb(Levels.toFloat(Arrays.copyOf(noise, noiseHeard))), speech - snrDb);
        }
        OfflineDuplexRoom room = new OfflineDuplexRoom(seconds, echoPath, echoGain, reply, text.toString(),
                new AtomicLong());
        room.say(noise, 0, noiseGain);
        room.playAt(ListeningCue.sound().samples(), (int) ListeningCue.DELAY_MILLIS);
        // -DquestionAt=MS (the sweep): a user who speaks as soon as the loop opens, before the listening cue
        room.say(q, Integer.getInteger("questionAt", QUESTION_MILLIS), 1.0);
        room.sayAfterReplyStarts(b, bargeAt);
        more.accept(room, userRms);
        room.run();
        return room;
    }

    /** Where the barge-in's speech starts in the room, ms from the start (its leading quiet skipped). */
    int bargeOnsetMillis(OfflineDuplexRoom room) {
        int onset = 0;
        while (onset < barge.length && Math.abs(barge[onset]) < 300) {
            onset++;
        }
        return room.replyStartedMillis() + bargeAt + onset / 16;
    }

    static short[] load(Path p) throws Exception {
        return WavFileSource.load(p, 16_000).samples();
    }

    /** {@code bed} started {@code millis} in (16 kHz), wrapping round: the room begins at another moment of it. */
    static short[] rotated(short[] bed, int millis) {
        int from = millis * 16 % bed.length;
        short[] out = new short[bed.length];
        System.arraycopy(bed, from, out, 0, bed.length - from);
        System.arraycopy(bed, 0, out, bed.length - from, from);
        return out;
    }

    static double activeDb(short[] s) {
        return Levels.activeDb(Levels.toFloat(s), 16_000);
    }

    /** {@code s} times {@code gain}, clipped to 16 bits. */
    static short[] scaled(short[] s, double gain) {
        short[] out = new short[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(s[i] * gain)));
        }
        return out;
    }

    /** 16-bit samples as a unit-scaled impulse response. */
    static double[] unit(short[] s) {
        double[] d = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            d[i] = s[i] / 32768.0;
        }
        return d;
    }

    /** A float signal (full scale 1) as 16-bit samples, clipped. */
    static short[] pcm(float[] x) {
        short[] out = new short[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(x[i] * 32768.0)));
        }
        return out;
    }

    /** {@code x} through {@code h} (the room's path), clipped to 16 bits: the room package's FFT convolution. */
    static short[] convolve(short[] x, double[] h) {
        float[] xf = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            xf[i] = x[i];
        }
        float[] hf = new float[h.length];
        for (int i = 0; i < h.length; i++) {
            hf[i] = (float) h[i];
        }
        float[] y = BlockConvolver.convolve(xf, hf);
        short[] out = new short[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(y[i])));
        }
        return out;
    }
}
