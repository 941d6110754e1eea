package dev.parley.app.cli.bench;

import dev.parley.app.cli.LoadedModel;
import dev.parley.app.voice.EngineResponder;
import dev.parley.app.voice.KeepOpenSynthesizer;
import dev.parley.audio.PcmAudio;
import dev.parley.audio.Speculation;
import dev.parley.audio.VoicePipeline;
import dev.parley.audio.VoiceSettings;
import dev.parley.audio.asr.VoskRecognizer;
import dev.parley.audio.frontend.FrameCost;
import dev.parley.audio.room.ScheduledSpeech;
import dev.parley.audio.room.VirtualRoom;
import dev.parley.audio.tts.SpeechSynthesizer;
import dev.parley.audio.vad.VoiceActivityDetector;
import java.util.function.Supplier;
import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.sampling.Sampler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One condition of {@code bench duplex} (a room, an echo level, an SNR): the whole voice loop (Vosk,
 * the engine, MaryTTS) on a {@link VirtualRoom}'s speaker and microphone, the planned trials said in
 * real time, then the counts.
 */
final class DuplexRun {
    private static final long QUIET_MS = 1500;
    private static final long QUIET_TIMEOUT_MS = 30_000;
    private static final long TURN_WAIT_MS = 8_000;
    private static final long ANSWER_TIMEOUT_MS = 20_000;
    private static final long NOISE_WATCH_MS = 3000;

    /** A recording the user says, with its transcript. */
    record Speech(String label, PcmAudio audio, String text) {
    }

    /** What every condition shares. */
    record Shared(LoadedModel model, int context, Sampler sampler, int maxTokens, Path voskModel, SpeechSynthesizer tts,
                  VoiceSettings settings, DuplexFrontEnd frontEnd, Supplier<VoiceActivityDetector> vad, List<Speech> speech, DuplexPlan plan, PrintStream log) {
    }

    private DuplexRun() {
    }

    static DuplexTally run(Shared s, VirtualRoom.Setup setup, String label) throws IOException, InterruptedException {
        DuplexEvents events = new DuplexEvents();
        List<DuplexAnalysis.Utterance> said = new ArrayList<>();
        int unanswered = 0;
        int skipped = 0;
        VirtualRoom room = new VirtualRoom(setup);
        FrameCost frontEndCost = new FrameCost();
        Speculation speculation = new Speculation(0, 0);
        try (CachedSession session = s.model().newSession(s.context())) {
            EngineResponder responder = new EngineResponder(s.model().newConversation(session, null), s.sampler(), s.maxTokens());
            responder.warmUp();
            VoskRecognizer vosk = VoskRecognizer.load(s.voskModel());
            try (VoicePipeline pipeline = new VoicePipeline(room.microphone(), vosk, responder, new KeepOpenSynthesizer(s.tts()),
                    room.speaker(), s.settings(), s.frontEnd().open(), s.vad().get())) {
                pipeline.addListener(events);
                pipeline.start();
                int n = 0;
                for (DuplexPlan.Trial trial : s.plan().trials()) {
                    n++;
                    awaitQuiet(pipeline, room, events);
                    Speech q = s.speech().get(trial.question());
                    ScheduledSpeech asked = room.say(q.label(), q.audio(), 300);
                    said.add(new DuplexAnalysis.Utterance(asked, q.text(), false));
                    DuplexEvents.ReplyStart reply = events.awaitReplyAfter(asked.startNanos(),
                            asked.endNanos() + ANSWER_TIMEOUT_MS * 1_000_000L);
                    String what;
                    if (reply == null) {
                        unanswered++;
                        what = "no reply";
                    } else if (trial.noiseOnly()) {
                        awaitQuiet(pipeline, room, events);
                        long until = System.nanoTime() + NOISE_WATCH_MS * 1_000_000L;
                        while (System.nanoTime() < until) {
                            events.pause(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
                        }
                        what = "noise only";
                    } else {
                        long at = reply.nanos() + trial.bargeInDelayMs() * 1_000_000L;
                        while (System.nanoTime() < at) {
                            events.pause(Math.max(1, (at - System.nanoTime()) / 1_000_000L));
                        }
                        // said unless the reply already ended normally (a reply cut short by its own echo still counts:
                        // the user would have barged in and found nothing to stop)
                        boolean cut = events.stops().stream().anyMatch(st -> st.turn() == reply.turn());
                        if (room.speaker().isPlaying() || cut) {
                            Speech b = s.speech().get(trial.bargeIn());
                            said.add(new DuplexAnalysis.Utterance(room.say(b.label(), b.audio(), 0), b.text(), true));
                            what = "barge-in " + trial.bargeInDelayMs() + " ms into the reply" + (cut ? " (already cut)" : "");
                        } else {
                            skipped++;
                            what = "reply over before the barge-in";
                        }
                    }
                    s.log().printf(Locale.ROOT, "parley: bench duplex: %s trial %d/%d: asked \"%s\", %s%n", label, n,
                            s.plan().trials().size(), q.text(), what);
                }
                awaitQuiet(pipeline, room, events);
                frontEndCost = pipeline.frontEndCost();
                speculation = pipeline.speculation();
            }
        } finally {
            room.close();
        }
        logTimeline(s.log(), label, events, said);
        for (String e : events.errors()) {
            s.log().println("parley: bench duplex: " + label + ": voice loop error: " + e);
        }
        return DuplexAnalysis.tally(events, said, s.plan().trials().size(), unanswered, skipped, (int) s.plan().noiseOnly(),
                s.settings().endOfTurnSilenceMillis(), room::playedBetween, frontEndCost,
                speculation);
    }

    /** The run's events in time order on stderr, seconds from the first question. */
    private static void logTimeline(PrintStream log, String label, DuplexEvents events, List<DuplexAnalysis.Utterance> said) {
        record Line(long nanos, String text) {
        }
        List<Line> lines = new ArrayList<>();
        for (DuplexAnalysis.Utterance u : said) {
            lines.add(new Line(u.speech().onsetNanos(), "user says \"" + u.expected() + "\"" + (u.bargeIn() ? " (barge-in)" : "")));
        }
        for (DuplexEvents.ReplyStart r : events.replies()) {
            lines.add(new Line(r.nanos(), "reply " + r.turn() + " starts playing"));
        }
        for (DuplexEvents.Stop st : events.stops()) {
            lines.add(new Line(st.nanos(), "reply " + st.turn() + " stopped"));
        }
        for (DuplexEvents.Hold h : events.holds()) {
            lines.add(new Line(h.nanos(), "reply " + h.turn() + (h.held() ? " held" : " resumed")));
        }
        for (DuplexEvents.UserTurn u : events.turns()) {
            lines.add(new Line(u.nanos(), "turn " + u.turn() + " heard \"" + u.text() + "\""));
        }
        lines.sort(Comparator.comparingLong(Line::nanos));
        long t0 = said.isEmpty() ? 0 : said.getFirst().speech().startNanos();
        // the wall-clock time of 0 s, to set the timeline beside the voice loop's own log lines
        java.time.LocalTime zero = java.time.LocalTime.now().minusNanos(System.nanoTime() - t0);
        log.printf(Locale.ROOT, "parley: bench duplex: %s: 0 s is %s%n", label, zero);
        for (Line l : lines) {
            log.printf(Locale.ROOT, "parley: bench duplex: %s: %7.2f s %s%n", label, (l.nanos() - t0) / 1e9, l.text());
        }
    }

    /**
     * Until nothing is generated or played, no turn is being heard and no event came for {@value #QUIET_MS} ms (at
     * most {@value #QUIET_TIMEOUT_MS} ms). A turn still being heard {@value #TURN_WAIT_MS} ms after the last reply is
     * taken as stuck (a voice activity detector that never hears its end in noise): the next trial speaks into it.
     */
    private static void awaitQuiet(VoicePipeline pipeline, VirtualRoom room, DuplexEvents events) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + QUIET_TIMEOUT_MS * 1_000_000L;
        long quietSince = start;
        long busySince = start;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            boolean busy = pipeline.isReplying() || room.speaker().isPlaying();
            if (busy) {
                busySince = now;
            }
            // a turn being heard with nothing else going on for TURN_WAIT_MS: the VAD is stuck in it (noise)
            boolean hearing = events.inTurn() && now - busySince < TURN_WAIT_MS * 1_000_000L;
            if (busy || hearing) {
                quietSince = now;
            }
            long since = Math.max(quietSince, events.lastEventNanos());
            if (now - since >= QUIET_MS * 1_000_000L || (events.inTurn() && !busy && now - quietSince >= QUIET_MS * 1_000_000L
                    && now - busySince >= TURN_WAIT_MS * 1_000_000L)) {
                return;
            }
            events.pause(20);
        }
    }

}
