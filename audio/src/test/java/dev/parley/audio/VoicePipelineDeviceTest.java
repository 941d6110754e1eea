package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.Resampler;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole voice loop on the virtual ALSA device: fixture speech goes into the microphone
 * (MicrophoneSource reads in.raw), Vosk transcribes it, a responder streams a reply word by word
 * (standing in for the language model), MaryTTS speaks it and SpeakerSink plays it into out.raw.
 */
class VoicePipelineDeviceTest {
    private static final long WAIT_S = 30;      // a safety net for a hung test, not a timing assertion
    private static MaryTtsSynthesizer tts;
    private static Path model;
    private static PcmAudio whatTimeIsIt;
    private static PcmAudio stop;

    @BeforeAll
    static void setUp() throws IOException {
        model = SharedFixtures.require("vosk/model-assistant");
        whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"), 16_000);
        stop = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/04-stop.wav"), 16_000);
        tts = MaryTtsSynthesizer.start();
    }

    @AfterAll
    static void tearDown() {
        if (tts != null) {
            tts.close();
        }
    }

    /** Records what the pipeline reports. */
    private static final class Events implements VoiceListener {
        final BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> bargeIns = new LinkedBlockingQueue<>();
        final Map<Long, String> userTurns = new ConcurrentHashMap<>();
        final CountDownLatch firstSpeaking = new CountDownLatch(1);
        final BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        final AtomicLong playingAfterStop = new AtomicLong(-1);
        SpeakerSink sink;

        final AtomicLong frames = new AtomicLong();
        volatile double maxLevel = -200;

        @Override
        public void level(double dbfs) {
            frames.incrementAndGet();
            maxLevel = Math.max(maxLevel, dbfs);
        }

        final java.util.List<String> partials = new java.util.concurrent.CopyOnWriteArrayList<>();

        final CountDownLatch heardWholeSentence = new CountDownLatch(1);

        @Override
        public void partial(Transcript.Partial partial) {
            partials.add(partial.text());
            if (partial.text().equals("what time is it")) {
                heardWholeSentence.countDown();
            }
        }

        @Override
        public void userTurn(long turn, Transcript.Final text) {
            userTurns.put(turn, text.text());
        }

        @Override
        public void speaking(long turn, String sentence) {
            firstSpeaking.countDown();
        }

        @Override
        public void bargeIn(long turn) {
            playingAfterStop.set(sink.isPlaying() ? 1 : 0);
            bargeIns.add(turn);
        }

        @Override
        public void turnFinished(Exchange exchange) {
            finished.add(exchange);
        }

        @Override
        public void error(Throwable error) {
            errors.add(error);
        }
    }

    private static Responder wordByWord(String reply) {
        return (user, out, cancel) -> {
            for (String w : reply.split("(?<= )")) {
                if (cancel.isCancelled()) {
                    return;
                }
                out.accept(w);
            }
        };
    }

    @Test
    void fixtureSpeechIsAnsweredAndTheReplyIsPlayed() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Events events = new Events();
            MicrophoneSource mic;
            SpeakerSink sink;
            String reply = "Set a timer for 5 minutes.";
            VoicePipeline pipeline;
            mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
            sink = SpeakerSink.open(null, tts.sampleRate());
            events.sink = sink;
            pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), wordByWord(reply), tts, sink, VoiceSettings.defaults());
            pipeline.addListener(events);
            Exchange e;
            long samplesPlayed;
            try {
                pipeline.start();
                e = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
                samplesPlayed = sink.samplesWritten();
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
            assertTrue(e != null, "the turn never finished; frames " + events.frames + " max level " + events.maxLevel);
            assertEquals("what time is it", e.userText());
            assertTrue(events.partials.contains("what time"), "live partial transcript: " + events.partials);
            assertEquals(reply, e.replyText());
            assertEquals(List.of(reply), e.spoken());
            assertFalse(e.interrupted());
            TurnLatency lat = e.latency();
            System.out.println("voice loop on the virtual device: " + lat);
            assertTrue(lat.complete(), "every stage stamped: " + lat);
            assertTrue(lat.ordered(), "stages in order: " + lat);

            PcmAudio played = device.played(tts.sampleRate());
            assertEquals(samplesPlayed, played.length(), "out.raw holds exactly what the sink wrote");
            double seconds = played.durationMillis() / 1000;
            assertTrue(seconds > 1.0 && seconds < 6.0, "plausible length for one short sentence: " + seconds + " s");
            assertTrue(LevelMeter.rmsDbfs(played) > -35, "non-silent: " + LevelMeter.rmsDbfs(played) + " dBFS");
            // the played audio is the spoken reply: numbers normalized, recognizable speech
            try (VoskRecognizer vosk = VoskRecognizer.load(model)) {
                assertEquals("set a timer for five minutes", vosk.transcribe(Resampler.resample(played, 16_000)).text());
            }
        }
    }

    @Test
    void speakingOverTheReplyStopsPlaybackAndCancelsGeneration() throws Exception {
        String firstClause = "Here is a rather long answer that keeps on going for quite a while,";
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicLong stillGenerating = new AtomicLong();
        Responder slowModel = (user, out, cancel) -> {
            if (user.equals("stop")) {
                out.accept("Okay.");
                return;
            }
            cancel.onCancel(cancelled::countDown);
            for (String w : (firstClause + " so that you can interrupt me.").split("(?<= )")) {
                out.accept(w);
            }
            // a language model still generating the next sentences until it is cancelled
            stillGenerating.set(1);
            if (!cancelled.await(WAIT_S, TimeUnit.SECONDS)) {
                out.accept(" And it was never cancelled.");
            }
            stillGenerating.set(0);
        };
        PcmAudio firstClauseAudio = tts.synthesize(firstClause);
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Events events = new Events();
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            device.speak(whatTimeIsIt.concat(PcmAudio.silence(1200, 16_000)));
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            events.sink = sink;
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), slowModel, tts, sink, VoiceSettings.defaults());
            pipeline.addListener(events);
            Exchange first;
            Exchange second;
            long bargeInTurn;
            long spokeAt;
            long stoppedAt;
            long writtenAtStop;
            try {
                pipeline.start();
                assertTrue(events.firstSpeaking.await(WAIT_S, TimeUnit.SECONDS), "the reply never started playing");
                spokeAt = System.nanoTime();
                device.speak(stop.concat(PcmAudio.silence(1200, 16_000)));      // the user talks over the reply
                Long b = events.bargeIns.poll(WAIT_S, TimeUnit.SECONDS);
                stoppedAt = System.nanoTime();
                writtenAtStop = sink.samplesWritten();
                assertTrue(b != null, "no barge-in");
                bargeInTurn = b;
                first = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
                second = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
            } finally {
                device.endInput();
                pipeline.close();
            }
            System.out.printf("barge-in: playback stopped %.0f ms after the user's speech was fed (fed audio is read at once, so the VAD's 100 ms minimum speech is not in this figure)%n",
                    (stoppedAt - spokeAt) / 1e6);
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
            assertEquals(1, bargeInTurn);
            assertEquals(0, events.playingAfterStop.get(), "playback had stopped when the barge-in was reported");
            assertTrue(cancelled.getCount() == 0, "the responder's cancel signal fired");
            assertEquals(0, stillGenerating.get(), "generation ended");
            assertTrue(writtenAtStop < firstClauseAudio.length(),
                    "playback stopped mid-reply: " + writtenAtStop + " of " + firstClauseAudio.length() + " samples of the first clause");

            assertTrue(first != null && second != null, "both turns finished");
            assertEquals("what time is it", first.userText());
            assertTrue(first.interrupted(), "first exchange marked interrupted");
            assertTrue(first.replyText().startsWith(firstClause), first.replyText());
            assertFalse(first.replyText().contains("never cancelled"));
            assertTrue(first.latency().ordered(), first.latency().toString());
            assertEquals("stop", second.userText());
            assertEquals("Okay.", second.replyText());
            assertFalse(second.interrupted());
            assertTrue(second.latency().complete() && second.latency().ordered(), second.latency().toString());
            System.out.println("turn after barge-in: " + second.latency());
        }
    }

    @Test
    void pushToTalkEndsTheTurnOnRelease() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Events events = new Events();
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            events.sink = sink;
            VoiceSettings ptt = VoiceSettings.defaults().withMode(VoiceSettings.Mode.PUSH_TO_TALK);
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), wordByWord("Hello."), tts, sink, ptt);
            pipeline.addListener(events);
            Exchange e;
            try {
                pipeline.start();
                pipeline.pushToTalk(true);
                device.speak(whatTimeIsIt);                                  // no trailing silence needed
                assertTrue(events.heardWholeSentence.await(WAIT_S, TimeUnit.SECONDS), "partials: " + events.partials);
                pipeline.pushToTalk(false);
                device.speak(PcmAudio.silence(200, 16_000));                // the microphone keeps delivering frames
                e = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(e != null, "the turn never finished");
            assertEquals("what time is it", e.userText());
            assertEquals(1, events.userTurns.size(), "one turn: " + events.userTurns);
            assertEquals("Hello.", e.replyText());
            assertTrue(e.latency().complete() && e.latency().ordered(), e.latency().toString());
        }
    }
}
