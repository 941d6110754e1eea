package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.PcmAudio;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.capture.WavFileSource;
import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The in-process virtual room: what the speaker plays comes back at the microphone through the room. */
class VirtualRoomTest {
    private static final int RATE = VirtualRoom.RATE;

    @Test
    void theSpeakersAudioComesBackThroughTheImpulseResponseWithTheLatency() throws Exception {
        RoomSpec spec = ImageSourceRirTest.rooms().get(1);   // 40 ms latency
        ImpulseResponse ir = new ImageSourceRir(RATE).render(spec);
        PcmAudio burst = noise(48_000, 1.0, 3);
        double unit = VirtualRoom.echoLevel(burst, ir);
        RoomMixer.Levels3 levels = new RoomMixer.Levels3(-26, -6, 60);
        try (VirtualRoom room = new VirtualRoom(new VirtualRoom.Setup(ir, null, levels, unit, null, 1))) {
            room.keepRecording(10);
            int frames = 150;   // 3 s
            CountDownLatch started = new CountDownLatch(1);
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < frames; i++) {
                        assertNotNull(room.microphone().read());
                        started.countDown();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(started.await(5, TimeUnit.SECONDS));
            room.speaker().play(burst);
            reader.join(10_000);
            float[] mic = Levels.toFloat(room.recording().samples());
            assertEquals(frames * VirtualRoom.FRAME, mic.length, "every frame was read");
            float[] played = Levels.toFloat(room.speakerRecording().samples());
            assertEquals(mic.length, played.length, "one speaker frame per microphone frame");
            assertTrue(Levels.rmsDb(played) > -40, "the burst was played");
            int lag = bestLag(mic, played, RATE / 5);
            assertEquals(ir.peakIndex(), lag, 1, "cross-correlation peak = the room's direct path (latency + distance / c)");
            assertTrue(lag >= spec.latencyMillis() * RATE / 1000, "the latency is in the lag");
            // the microphone is the played audio through the room at the echo level
            float[] expected = BlockConvolver.convolve(played, ir.taps());
            double gain = Levels.gain(unit, levels.echoDbfs());
            double err = 0;
            double sig = 0;
            for (int i = 0; i < mic.length; i++) {
                double e = expected[i] * gain;
                err += (mic[i] - e) * (mic[i] - e);
                sig += e * e;
            }
            assertTrue(10 * Math.log10(sig / err) > 30, "mic = played * IR * gain, error " + 10 * Math.log10(err / sig) + " dB");
            assertEquals(levels.echoDbfs(), Levels.activeDb(mic, RATE), 0.5, "echo at the requested level");
        }
    }

    @Test
    void aStopDropsWhatWasNotPlayedAndTheUsersSpeechArrivesAtItsLevel() throws Exception {
        PcmAudio user = WavFileSource.load(SharedFixtures.require("vosk/wav/espeak-ng/09-hello.wav"), RATE);
        ImpulseResponse ir = ImpulseResponse.dry("dry", 160, 1f, RATE);
        PcmAudio tone = noise(RATE, 3.0, 5);
        try (VirtualRoom room = new VirtualRoom(new VirtualRoom.Setup(ir, null, new RoomMixer.Levels3(-26, 0, 60),
                VirtualRoom.echoLevel(tone, ir), null, 1))) {
            ByteArrayOutputStream speaker = new ByteArrayOutputStream();
            room.addPlaybackListener(p -> {
                byte[] b = p.toLittleEndianBytes();
                speaker.write(b, 0, b.length);
            });
            room.microphone().read();
            room.speaker().play(tone);
            for (int i = 0; i < 25; i++) {
                room.microphone().read();     // 0.5 s of the 3 s
            }
            assertTrue(room.speaker().isPlaying());
            room.speaker().stopNow();
            speaker.reset();
            room.keepRecording(5);
            ScheduledSpeech said = room.say("hello", user, 400);
            int n = (int) ((said.endNanos() - System.nanoTime()) / 20_000_000L) + 10;
            for (int i = 0; i < n; i++) {
                room.microphone().read();
            }
            byte[] sb = speaker.toByteArray();
            float[] after = Levels.toFloat(PcmAudio.fromLittleEndianBytes(sb, 0, sb.length, RATE).samples());
            // at most the piece in flight (60 ms lead + one frame) is heard after the stop
            int loud = 0;
            for (float v : after) {
                loud += v != 0 ? 1 : 0;
            }
            assertTrue(loud <= RATE * 80 / 1000, "after a stop the speaker is silent, found " + loud + " samples");
            assertTrue(!room.speaker().isPlaying());
            float[] mic = Levels.toFloat(room.recording().samples());
            float[] tail = java.util.Arrays.copyOfRange(mic, RATE * 3 / 10, mic.length);
            assertEquals(-26, Levels.activeDb(tail, RATE), 0.5, "the user's speech at the speech level");
            assertTrue(said.onsetNanos() >= said.startNanos() && said.endNanos() > said.onsetNanos());
            // no user path: the voice ends where the recording's last active frame does, before its trailing quiet
            double voiceEnd = (said.voiceEndNanos() - said.startNanos()) * (double) RATE / 1e9;
            assertEquals(Levels.end(Levels.toFloat(user.samples()), RATE), voiceEnd, 1.0);
            assertTrue(said.voiceEndNanos() > said.onsetNanos() && said.voiceEndNanos() <= said.endNanos());
        }
    }

    @Test
    void theSpeakersTapHearsEachPieceWithItsStartAndTheStop() throws Exception {
        ImpulseResponse ir = ImpulseResponse.dry("dry", 0, 1f, RATE);
        PcmAudio tone = noise(48_000, 2.0, 9);
        try (VirtualRoom room = new VirtualRoom(new VirtualRoom.Setup(ir, null, new RoomMixer.Levels3(-26, 0, 60),
                VirtualRoom.echoLevel(tone, ir), null, 1))) {
            java.util.List<long[]> pieces = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger flushes = new java.util.concurrent.atomic.AtomicInteger();
            room.speaker().tap(new dev.parley.audio.playback.PlaybackTap() {
                @Override
                public void played(PcmAudio audio) {
                    throw new AssertionError("the room's speaker has a clock: it gives each piece's start");
                }

                @Override
                public void played(PcmAudio audio, long startsAtNanos) {
                    pieces.add(new long[] {startsAtNanos, audio.length(), audio.sampleRate()});
                }

                @Override
                public void flushed() {
                    flushes.incrementAndGet();
                }
            });
            room.microphone().read();
            room.speaker().play(tone);
            for (int i = 0; i < 25; i++) {
                room.microphone().read();
            }
            room.speaker().stopNow();
            int atStop = pieces.size();
            for (int i = 0; i < 10; i++) {
                room.microphone().read();
            }
            assertEquals(1, flushes.get());
            assertEquals(atStop, pieces.size(), "nothing reaches the tap after a stop");
            assertTrue(atStop >= 20, "about 25 pieces of 20 ms played before the stop, found " + atStop);
            for (int i = 1; i < pieces.size(); i++) {
                long[] a = pieces.get(i - 1);
                long[] b = pieces.get(i);
                assertEquals(RATE, b[2], "pieces at the room's rate");
                // right behind the last one, or later after an underrun (a loaded machine), never overlapping it
                assertTrue(b[0] >= a[0] + a[1] * 1_000_000_000L / RATE - 100_000, "piece " + i + " starts after the last ended");
            }
        }
    }

    static int bestLag(float[] y, float[] x, int maxLag) {
        int best = 0;
        double bestValue = -1;
        for (int lag = 0; lag <= maxLag; lag++) {
            double c = 0;
            for (int i = 0; i + lag < y.length; i++) {
                c += (double) y[i + lag] * x[i];
            }
            if (c > bestValue) {
                bestValue = c;
                best = lag;
            }
        }
        return best;
    }

    static PcmAudio noise(int rate, double seconds, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        short[] s = new short[(int) (rate * seconds)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) ((rnd.nextDouble() * 2 - 1) * 8000);
        }
        return new PcmAudio(s, rate);
    }
}
