package dev.parley.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.audio.asr.Transcript;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.capture.MicrophoneSource;
import dev.parley.audio.capture.ResilientMicrophone;
import dev.parley.audio.capture.WavFileSource;
import dev.parley.audio.device.DeviceFault;
import dev.parley.audio.device.RetryPolicy;
import dev.parley.audio.device.UnpluggableLines;
import dev.parley.audio.playback.ResilientSpeaker;
import dev.parley.audio.tts.MaryTtsSynthesizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Microphone and speaker faults on the virtual ALSA device, with real lines: the device goes away mid-turn (its
 * ALSA file is removed, so it cannot be opened, and the open line is closed under the loop, as the kernel does to an
 * unplugged device) or is busy at start. The loop says which device and what happened, keeps running, retries and
 * works again by itself once the device is back.
 */
class DeviceFaultTest {
    private static final long WAIT_S = 30;      // a safety net for a hung test, not a timing assertion
    private static final RetryPolicy FAST = new RetryPolicy(20, 100);
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

    private static final class Events implements VoiceListener {
        final BlockingQueue<DeviceFault> faults = new LinkedBlockingQueue<>();
        final BlockingQueue<DeviceFault.Kind> recovered = new LinkedBlockingQueue<>();
        final BlockingQueue<String> userTurns = new LinkedBlockingQueue<>();
        final BlockingQueue<Exchange> finished = new LinkedBlockingQueue<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final CountDownLatch heardWords = new CountDownLatch(1);
        final CountDownLatch speaking = new CountDownLatch(1);

        final java.util.concurrent.atomic.AtomicLong frames = new java.util.concurrent.atomic.AtomicLong();
        final List<String> partials = new CopyOnWriteArrayList<>();
        volatile double maxLevel = -200;

        @Override
        public void level(double dbfs) {
            frames.incrementAndGet();
            maxLevel = Math.max(maxLevel, dbfs);
        }

        @Override
        public void partial(Transcript.Partial partial) {
            partials.add(partial.text());
            if (!partial.text().isBlank()) {
                heardWords.countDown();
            }
        }

        @Override
        public void userTurn(long turn, Transcript.Final text) {
            userTurns.add(text.text());
        }

        @Override
        public void speaking(long turn, String sentence) {
            speaking.countDown();
        }

        @Override
        public void turnFinished(Exchange exchange) {
            finished.add(exchange);
        }

        @Override
        public void deviceFault(DeviceFault fault) {
            faults.add(fault);
        }

        @Override
        public void deviceRecovered(DeviceFault.Kind kind, String device) {
            recovered.add(kind);
        }

        @Override
        public void error(Throwable error) {
            errors.add(error);
        }
    }

    private static Responder replies(String first, String later) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return (user, out, cancel) -> {
            for (String w : (n.getAndIncrement() == 0 ? first : later).split("(?<= )")) {
                if (cancel.isCancelled()) {
                    return;
                }
                out.accept(w);
            }
        };
    }

    /** Waits for a state the loop reaches by itself; fails after {@link #WAIT_S}. */
    private static void await(BooleanSupplier condition, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "never happened: " + what);
            LockSupport.parkNanos(5_000_000);
        }
    }

    @Test
    void aMicrophoneLostMidTurnIsSaidRetriedAndHeardAgainOnceItIsBack() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            UnpluggableLines lines = new UnpluggableLines();
            Events events = new Events();
            ResilientMicrophone mic = ResilientMicrophone.open(MicrophoneSource.Options.defaults(), lines, FAST);
            assertNull(mic.fault(), "the microphone opened");
            ResilientSpeaker sink = ResilientSpeaker.open(null, tts.sampleRate(), lines, FAST);
            // only the whole question is answered: a reply to the cut one would be barged in on by the next question
            Responder answer = (user, out, cancel) -> {
                if (user.equals("what time is it")) {
                    out.accept("Okay.");
                }
            };
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), answer, tts, sink,
                    VoiceSettings.defaults());
            pipeline.addListener(events);
            try {
                pipeline.start();
                // the first half of a question, then the microphone goes away in the middle of the turn
                device.speak(whatTimeIsIt.slice(0, whatTimeIsIt.length() * 6 / 10));
                assertTrue(events.heardWords.await(WAIT_S, TimeUnit.SECONDS), "the start of the turn was heard");
                device.unplugMicrophone();
                lines.pullOut(true);
                // the line is closed under the capture thread, which waits in its read of the (quiet) pipe: a quiet
                // room's 20 ms at a time lets the read return and the close through, as a live device would
                DeviceFault f = null;
                for (int i = 0; f == null && i < 500; i++) {
                    device.speak(PcmAudio.silence(20, 16_000));
                    f = events.faults.poll(20, TimeUnit.MILLISECONDS);
                }
                assertNotNull(f, "the lost microphone was said");
                assertEquals(DeviceFault.Kind.MICROPHONE, f.kind());
                assertTrue(f.message().contains("microphone (the default audio device)")
                        && f.message().contains("retries"), f.message());
                int opens = lines.captureOpens();
                await(() -> lines.captureOpens() > opens + 1, "the microphone is tried again while it is away");
                assertNotNull(mic.fault(), "ALSA cannot open a device whose file is gone");
                assertTrue(events.recovered.isEmpty(), "no recovery while the device is away");

                device.plugInMicrophone();
                assertEquals(DeviceFault.Kind.MICROPHONE, events.recovered.poll(WAIT_S, TimeUnit.SECONDS),
                        "the microphone came back by itself");
                assertNull(mic.fault());
                assertTrue(events.userTurns.isEmpty(), "the cut turn was not sent: " + events.userTurns);
                long framesBefore = events.frames.get();
                events.maxLevel = -200;
                device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
                events.partials.clear();
                String turn = events.userTurns.poll(WAIT_S, TimeUnit.SECONDS);

                assertEquals("what time is it", turn, "the first turn after the outage; the cut one was dropped; frames "
                        + (events.frames.get() - framesBefore) + " max level " + events.maxLevel + " partials " + events.partials);
                assertNotNull(events.finished.poll(WAIT_S, TimeUnit.SECONDS), "and it was answered");
                assertTrue(events.faults.isEmpty(), "one fault said per outage, found more: " + events.faults);
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
        }
    }

    @Test
    void aSpeakerLostMidReplyKeepsTheReplyTextAndPlaysTheNextReplyOnceItIsBack() throws Exception {
        String longReply = "Here is a rather long answer that keeps on going for quite a while, so that the speaker "
                + "can be pulled out in the middle of it. And then it goes on with another sentence.";
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            UnpluggableLines lines = new UnpluggableLines();
            Events events = new Events();
            ResilientMicrophone mic = ResilientMicrophone.open(MicrophoneSource.Options.defaults(), lines, FAST);
            ResilientSpeaker sink = ResilientSpeaker.open(null, tts.sampleRate(), lines, FAST);
            assertNull(sink.fault(), "the speaker opened");
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), replies(longReply, "Okay."),
                    tts, sink, VoiceSettings.defaults());
            pipeline.addListener(events);
            try {
                pipeline.start();
                device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
                assertTrue(events.speaking.await(WAIT_S, TimeUnit.SECONDS), "the reply started playing");
                device.unplugSpeaker();
                lines.pullOut(false);
                DeviceFault f = events.faults.poll(WAIT_S, TimeUnit.SECONDS);
                assertNotNull(f, "the lost speaker was said");
                assertEquals(DeviceFault.Kind.SPEAKER, f.kind());
                assertTrue(f.message().contains("speaker (the default audio device)") && f.message().contains("retries"),
                        f.message());
                Exchange first = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
                assertNotNull(first, "the reply's turn finished without the speaker");
                assertEquals(longReply, first.replyText(), "the reply is kept whole in the conversation");
                assertNotNull(sink.fault(), "ALSA cannot open a playback file that is a folder");

                device.plugInSpeaker();
                assertEquals(DeviceFault.Kind.SPEAKER, events.recovered.poll(WAIT_S, TimeUnit.SECONDS),
                        "the speaker came back by itself");
                device.speak(stop.concat(PcmAudio.silence(1500, 16_000)));
                Exchange second = events.finished.poll(WAIT_S, TimeUnit.SECONDS);
                assertNotNull(second, "the loop answered the next turn");
                assertEquals("stop", second.userText());
                assertEquals(List.of("Okay."), second.spoken());
                // the reopened device's file holds the new reply only (each open truncates it)
                PcmAudio played = device.played(tts.sampleRate());
                assertTrue(played.length() > tts.sampleRate() / 10 && LevelMeter.rmsDbfs(played) > -35,
                        "the next reply was played: " + played.length() + " samples at " + LevelMeter.rmsDbfs(played) + " dBFS");
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
        }
    }

    @Test
    void aMicrophoneBusyAtStartIsRetriedUntilItIsFree() throws Exception {
        try (VirtualSoundDevice device = VirtualSoundDevice.create()) {
            UnpluggableLines lines = new UnpluggableLines();
            lines.busy(true, true);
            Events events = new Events();
            ResilientMicrophone mic = ResilientMicrophone.open(MicrophoneSource.Options.defaults(), lines, FAST);
            assertNotNull(mic.fault(), "busy at start");
            ResilientSpeaker sink = ResilientSpeaker.open(null, tts.sampleRate(), lines, FAST);
            VoicePipeline pipeline = new VoicePipeline(mic, VoskRecognizer.load(model), replies("Okay.", "Okay."), tts,
                    sink, VoiceSettings.defaults());
            pipeline.addListener(events);
            try {
                pipeline.start();
                DeviceFault f = events.faults.poll(WAIT_S, TimeUnit.SECONDS);
                assertNotNull(f, "a listener added during the outage hears of it");
                assertTrue(f.message().contains("busy") && f.message().contains("microphone"), f.message());
                int opens = lines.captureOpens();
                await(() -> lines.captureOpens() > opens + 1, "the busy microphone is tried again");
                lines.busy(true, false);
                assertEquals(DeviceFault.Kind.MICROPHONE, events.recovered.poll(WAIT_S, TimeUnit.SECONDS));
                device.speak(whatTimeIsIt.concat(PcmAudio.silence(1500, 16_000)));
                assertEquals("what time is it", events.userTurns.poll(WAIT_S, TimeUnit.SECONDS));
            } finally {
                device.endInput();
                pipeline.close();
            }
            assertTrue(events.errors.isEmpty(), "errors: " + events.errors);
            assertTrue(events.faults.isEmpty(), "one fault per outage, found more: " + events.faults);
        }
    }
}
