package dev.parley.app.voice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.VirtualSoundDevice;
import dev.parley.engine.SharedFixtures;
import dev.parley.app.TestModels;
import dev.parley.app.gui.voice.PipelineVoice;
import dev.parley.app.gui.voice.SpokenTurns;
import dev.parley.app.gui.voice.VoiceEvents;
import dev.parley.audio.Exchange;
import dev.parley.audio.LevelMeter;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.Conversation;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.sampling.SamplingSettings;
import dev.parley.engine.tokenizer.ChatTemplate;
import dev.parley.engine.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GUI's {@link PipelineVoice} on the virtual ALSA device: the voice control starts the real loop,
 * its events reach the UI side, and a spoken turn is answered by the engine through {@link SpokenTurns}
 * (standing in for the chat service, which stores the turn marked spoken).
 */
class PipelineVoiceDeviceTest {
    private static final long WAIT_S = 60;      // a safety net for a hung test, not a timing assertion

    /** What the UI side of the seam receives. */
    private static final class UiEvents implements VoiceEvents {
        final AtomicInteger levels = new AtomicInteger();
        final List<String> partials = new CopyOnWriteArrayList<>();
        final List<Boolean> speaking = new CopyOnWriteArrayList<>();
        final List<String> errors = new CopyOnWriteArrayList<>();

        @Override
        public void level(double dbfs) {
            levels.incrementAndGet();
        }

        @Override
        public void partial(String text) {
            partials.add(text);
        }

        @Override
        public void speaking(boolean on) {
            speaking.add(on);
        }

        @Override
        public void error(String message) {
            errors.add(message);
        }
    }

    @Test
    void theVoiceControlDrivesTheRealLoop(@TempDir Path dir) throws Exception {
        Path vosk = SharedFixtures.require("vosk/model-assistant");
        PcmAudio whatTimeIsIt = WavFileSource.load(SharedFixtures.require("vosk/wav/marytts/03-what-time-is-it.wav"), 16_000);
        Path emptyModel = Files.createDirectories(dir.resolve("no-model"));
        MaryTtsSynthesizer tts = MaryTtsSynthesizer.start();
        try (LlamaModel model = LlamaModel.load(TestModels.tiny(dir), new ModelOptions(BackendKind.VECTOR, 2));
             CachedSession session = new CachedSession(model.newSession(512));
             VirtualSoundDevice device = VirtualSoundDevice.create()) {
            Conversation conversation = new Conversation(Tokenizer.fromGguf(model.gguf()),
                    ChatTemplate.detect(model.gguf().getString("tokenizer.chat_template", null)), session, null);
            Sampler sampler = Sampler.create(SamplingSettings.chatDefaults(5));
            List<String> spokenTurns = new CopyOnWriteArrayList<>();
            SpokenTurns turns = (text, pieces, cancelled) -> {
                spokenTurns.add(text);
                CancellationToken token = new CancellationToken();
                conversation.reply(text, sampler, 10, token, e -> {
                    if (cancelled.getAsBoolean()) {
                        token.cancel();
                    }
                    if (e instanceof TokenEvent.Token t && !t.text().isEmpty()) {
                        pieces.accept(t.text());
                    }
                });
                return -1;
            };
            assertTrue(new PipelineVoice(emptyModel, null, null, tts, VoiceSettings.defaults()).unavailableReason()
                    .orElseThrow().contains("no Vosk model in"));

            PipelineVoice voice = new PipelineVoice(vosk, null, null, tts, VoiceSettings.defaults());
            assertTrue(voice.unavailableReason().isEmpty());
            BlockingQueue<Exchange> exchanges = new LinkedBlockingQueue<>();
            voice.addExchangeListener(exchanges::add);
            UiEvents ui = new UiEvents();
            Exchange e;
            java.util.Optional<dev.parley.audio.frontend.FrontEndStats> live;
            try {
                voice.start(turns, ui);
                device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
                e = exchanges.poll(WAIT_S, TimeUnit.SECONDS);
                live = voice.frontEndStats();
            } finally {
                device.endInput();
                voice.close();
            }
            assertTrue(ui.errors.isEmpty(), "errors: " + ui.errors);
            assertNotNull(e, "no turn finished");
            assertEquals(List.of("what time is it"), spokenTurns);
            assertEquals("what time is it", e.userText());
            assertTrue(e.latency().complete() && e.latency().ordered(), e.latency().toString());
            assertTrue(ui.levels.get() > 50, "level meter frames: " + ui.levels);
            assertTrue(ui.partials.contains("what time"), "live transcript: " + ui.partials);
            assertEquals(true, ui.speaking.getFirst(), "speaking on: " + ui.speaking);
            assertEquals(false, ui.speaking.getLast(), "speaking off at the end: " + ui.speaking);
            assertTrue(LevelMeter.rmsDbfs(device.played(tts.sampleRate())) > -40, "the reply was played");
            assertEquals(false, voice.running());
            // the dashboard's figures while the loop ran: with the echo canceller on, what it costs a frame
            assertTrue(live.isPresent(), "the running loop has front end figures");
            if (live.get().echoCancelling()) {
                assertTrue(live.get().frameMicros() > 0 && live.get().frameMicros() <= live.get().frameP99Micros(),
                        live.get().toString());
                assertTrue(dev.parley.app.gui.dashboard.DashboardViewModel.echoText(live.get()).contains(" a 10 ms frame (P99 "),
                        dev.parley.app.gui.dashboard.DashboardViewModel.echoText(live.get()));
            }
        } finally {
            tts.close();
        }
    }
}
