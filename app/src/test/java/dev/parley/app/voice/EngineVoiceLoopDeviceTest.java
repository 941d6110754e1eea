package dev.parley.app.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.VirtualSoundDevice;
import dev.parley.engine.SharedFixtures;
import dev.parley.app.TestModels;
import dev.parley.audio.Exchange;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.TurnLatency;
import dev.parley.audio.VoiceListener;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.playback.SpeakerSink;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.generate.StopReason;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatMessage;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Role;
import dev.parley.engine.tokenizer.Tokenizer;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole voice loop with the real engine on the virtual ALSA device: fixture speech goes into
 * the microphone, Vosk transcribes it, a generated (random-weight) model answers through
 * {@link EngineResponder}, MaryTTS speaks and the speaker writes out.raw.
 */
class EngineVoiceLoopDeviceTest {
    private static final long WAIT_S = 60;      // a safety net for a hung test, not a timing assertion
    private static MaryTtsSynthesizer tts;
    private static Path vosk;
    private static PcmAudio whatTimeIsIt;
    private static PcmAudio stop;

    @TempDir
    static Path models;

    @BeforeAll
    static void setUp() throws Exception {
        vosk = SharedFixtures.require("vosk/model-assistant");
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

    /** A model, its session and a conversation on it; closing releases them. */
    private record Engine(LlamaModel model, CachedSession session, Conversation conversation) implements AutoCloseable {
        static Engine open(Path file, int context) throws Exception {
            LlamaModel model = LlamaModel.load(file, new ModelOptions(BackendKind.VECTOR, 2));
            Tokenizer tokenizer = Tokenizer.fromGguf(model.gguf());
            CachedSession session = new CachedSession(model.newSession(Math.min(context, model.config().contextLength())));
            ChatTemplate template = ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null));
            return new Engine(model, session, new Conversation(tokenizer, template, session, null));
        }

        @Override
        public void close() {
            session.close();
            model.close();
        }
    }

    private static final class Events implements VoiceListener {
        final BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> bargeIns = new LinkedBlockingQueue<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final CountDownLatch firstSpeaking = new CountDownLatch(1);
        final AtomicInteger playingAtBargeIn = new AtomicInteger(-1);
        volatile SpeakerSink sink;
        final List<String> heard = new CopyOnWriteArrayList<>();
        final StringBuffer reply = new StringBuffer();

        @Override
        public void userTurn(long turn, dev.parley.audio.asr.Transcript.Final text) {
            heard.add(text.text());
        }

        @Override
        public void replyText(long turn, String piece) {
            reply.append(piece);
        }

        @Override
        public String toString() {
            return "heard " + heard + ", reply so far " + reply.length() + " chars: " + reply + ", errors " + errors;
        }

        @Override
        public void speaking(long turn, String sentence) {
            firstSpeaking.countDown();
        }

        @Override
        public void bargeIn(long turn) {
            playingAtBargeIn.set(sink.isPlaying() ? 1 : 0);
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

    @Test
    void theEngineAnswersSpeechAndTheReplyIsSpoken() throws Exception {
        int maxTokens = 12;
        try (Engine engine = Engine.open(TestModels.tiny(models), 512);
             VirtualSoundDevice device = VirtualSoundDevice.create()) {
            EngineResponder responder = new EngineResponder(engine.conversation(),
                    Sampler.create(SamplingSettings.chatDefaults(7)), maxTokens);
            Events events = new Events();
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            events.sink = sink;
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(vosk), responder, new KeepOpenSynthesizer(tts), sink,
                    VoiceSettings.defaults());
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
            assertNotNull(e, "the turn never finished");
            assertEquals("what time is it", e.userText());
            assertFalse(e.interrupted());

            List<SpokenReply> replies = responder.replies();
            assertEquals(1, replies.size());
            SpokenReply reply = replies.getFirst();
            assertFalse(reply.interrupted());
            assertTrue(reply.reason() == StopReason.MAX_TOKENS || reply.reason() == StopReason.EOS, reply.toString());
            assertTrue(reply.tokens() > 0 && reply.tokens() <= maxTokens, reply.toString());
            assertEquals(reply.replyText().strip(), e.replyText().strip(), "the loop spoke what the engine generated");
            assertEquals(List.of(new ChatMessage(Role.USER, "what time is it"), new ChatMessage(Role.ASSISTANT, reply.replyText().strip())),
                    engine.conversation().messages(), "the spoken turn is part of the conversation");

            TurnLatency lat = e.latency();
            System.out.println("engine voice loop on the virtual device: " + lat);
            assertTrue(lat.complete(), "every stage stamped: " + lat);
            assertTrue(lat.ordered(), "stages in order: " + lat);

            PcmAudio played = device.played(tts.sampleRate());
            assertEquals(samplesPlayed, played.length(), "out.raw holds what the sink wrote");
            double seconds = played.durationMillis() / 1000;
            int words = e.spoken().stream().mapToInt(s -> s.strip().split("\\s+").length).sum();
            assertTrue(seconds > 0.15 * words && seconds < 1.5 * words + 2,
                    "plausible length for " + words + " spoken words: " + seconds + " s");
            assertTrue(LevelMeter.rmsDbfs(played) > -40, "non-silent: " + LevelMeter.rmsDbfs(played));
        }
    }

    @Test
    void speakingOverTheReplyStopsPlaybackAndCancelsTheEngine() throws Exception {
        int maxTokens = 2000;       // far more than can be generated before the barge-in
        Path model = models.resolve("smollm2-135m.gguf");
        Synth.generate(SynthSpec.of(ModelShape.builtIn("smollm2-135m"), GgmlType.Q8_0, 1), model);
        try (Engine engine = Engine.open(model, 4096);
             VirtualSoundDevice device = VirtualSoundDevice.create()) {
            EngineResponder responder = new EngineResponder(engine.conversation(),
                    Sampler.create(SamplingSettings.chatDefaults(11)), maxTokens);
            BlockingQueue<SpokenReply> generations = new LinkedBlockingQueue<>();
            responder.addReplyListener(generations::add);
            Events events = new Events();
            MicrophoneSource mic = MicrophoneSource.open(MicrophoneSource.Options.defaults());
            device.speak(whatTimeIsIt.concat(PcmAudio.silence(1200, 16_000)));
            SpeakerSink sink = SpeakerSink.open(null, tts.sampleRate());
            events.sink = sink;
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(vosk), responder, new KeepOpenSynthesizer(tts), sink,
                    VoiceSettings.defaults());
            pipeline.addListener(events);
            Exchange first;
            Long bargeIn;
            SpokenReply cut;
            try {
                pipeline.start();
                assertTrue(events.firstSpeaking.await(WAIT_S, TimeUnit.SECONDS), "the reply never started playing: " + events);
                device.speak(stop.concat(PcmAudio.silence(1200, 16_000)));      // the user talks over the reply
                bargeIn = events.bargeIns.poll(WAIT_S, TimeUnit.SECONDS);
                first = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
                cut = generations.poll(WAIT_S, TimeUnit.SECONDS);                 // the engine's generation returned
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
            assertEquals(1L, bargeIn, "barge-in on the first turn");
            assertEquals(0, events.playingAtBargeIn.get(), "playback had stopped when the barge-in was reported");
            assertNotNull(first);
            assertTrue(first.interrupted(), "the exchange is marked interrupted");
            System.out.println("barge-in: " + first.latency());

            assertNotNull(cut, "the generation never returned");
            assertEquals("what time is it", cut.userText());
            assertTrue(cut.interrupted(), cut.toString());
            assertEquals(StopReason.CANCELLED, cut.reason(), "the engine's generation was cancelled");
            assertTrue(cut.tokens() > 0 && cut.tokens() < maxTokens, "generation stopped early: " + cut.tokens() + " of " + maxTokens + " tokens");
            assertTrue(cut.replyText().strip().startsWith(first.replyText().strip()),
                    "the loop heard a prefix of what the engine generated: " + first.replyText());
            assertEquals(responder.replies().getFirst(), cut);
            System.out.println("barge-in cancelled the engine after " + cut.tokens() + " tokens");

            List<ChatMessage> messages = engine.conversation().messages();
            assertEquals(new ChatMessage(Role.USER, "what time is it"), messages.get(0));
            assertEquals(new ChatMessage(Role.ASSISTANT, cut.replyText().strip()), messages.get(1),
                    "what was generated before the barge-in stays in the history");
        }
    }
}
