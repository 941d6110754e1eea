package dev.parley.audio.room;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.Exchange;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.Responder;
import dev.parley.audio.RoomDeviceBridge;
import dev.parley.audio.SharedFixtures;
import dev.parley.audio.VirtualSoundDevice;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The voice loop on the virtual ALSA device with a simulated room behind it: the user's question
 * reaches the real MicrophoneSource through the room, the reply the real SpeakerSink plays comes back
 * to the microphone through the room's impulse response.
 */
class RoomDeviceLoopTest {
    private static final long WAIT_S = 40;      // a safety net for a hung test, not a timing assertion

    @Test
    void aQuestionSaidInTheRoomIsAnsweredAndTheReplysEchoReachesTheMicrophone() throws Exception {
        PcmAudio question = WavFileSource.load(SharedFixtures.require("vosk/wav/espeak-ng/03-what-time-is-it.wav"), 16_000);
        var model = SharedFixtures.require("vosk/model-assistant");
        RoomAssets.Asset asset = RoomAssets.rooms().getFirst();
        ImageSourceRir rir = new ImageSourceRir(VirtualRoom.RATE);
        ImpulseResponse echoPath = rir.render(asset.echoPath());
        ImpulseResponse userPath = rir.render(asset.userPath());
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            MaryTtsSynthesizer tts = MaryTtsSynthesizer.start();      // the pipeline closes it
            double unit = VirtualRoom.echoLevel(tts.synthesize("This is a test of the room."), echoPath);
            VirtualRoom room = new VirtualRoom(new VirtualRoom.Setup(echoPath, userPath, new RoomMixer.Levels3(-26, -10, 40),
                    unit, null, 1));
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
            BlockingQueue<String> turns = new LinkedBlockingQueue<>();
            Responder reply = (user, out, cancel) -> out.accept("It is a quarter past ten, and the sun is out.");
            try (RoomDeviceBridge bridge = new RoomDeviceBridge(device, room, sink.sampleRate());
                 VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), reply, tts, sink,
                         VoiceSettings.defaults())) {
                pipeline.addListener(new VoiceListener() {
                    @Override
                    public void userTurn(long turn, Transcript.Final text) {
                        turns.add(text.text());
                    }

                    @Override
                    public void turnFinished(Exchange e) {
                        finished.add(e);
                    }
                });
                bridge.start();
                pipeline.start();
                room.keepRecording(60);
                room.say("what time is it", question, 300);
                assertEquals("what time is it", turns.poll(WAIT_S, TimeUnit.SECONDS), "the question reached Vosk through the room");
                Exchange e = finished.poll(WAIT_S, TimeUnit.SECONDS);
                assertNotNull(e, "the reply was played");
                assertTrue(!e.spoken().isEmpty(), "the reply's audio started playing: " + e);
            }
            float[] mic16 = Levels.toFloat(room.recording().samples());
            float[] played = Levels.toFloat(room.speakerRecording().samples());
            int n = Math.min(mic16.length, played.length);
            assertTrue(Levels.rmsDb(played) > -50, "SpeakerSink's audio went through out.raw to the room's speaker");
            // the reply came back to the microphone through the room: correlation peak at the room's direct path
            int lag = bestLag(java.util.Arrays.copyOf(mic16, n), java.util.Arrays.copyOf(played, n), VirtualRoom.RATE / 5);
            assertEquals(echoPath.peakIndex(), lag, 2, "echo delay = the room's latency + direct path");
        }
    }

    private static int bestLag(float[] y, float[] x, int maxLag) {
        return VirtualRoomTest.bestLag(y, x, maxLag);
    }
}
