package dev.parley.app.cli.bench;

import dev.parley.audio.Speculation;
import dev.parley.audio.frontend.FrameCost;
import dev.parley.audio.room.ScheduledSpeech;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Turns a duplex run's events into counts. A stop of a reply is the user's doing when it comes between
 * the onset of something the user said (less {@value #EARLY_MS} ms) and {@value #LATE_MS} ms after its end,
 * and the reply had started playing before that speech ended: a caught barge-in if it was one (the first
 * such stop; its latency runs from the speech onset to when the reply went silent: the hold that the stop
 * confirmed, in full duplex, else the stop), else a turn replacing the reply. Every other stop of a reply that
 * had started playing is a self-interruption; of one that had not, a reply cut unheard. A hold that resumed
 * (a false interruption) stops nothing. A user turn belongs to the earliest unclaimed utterance whose window
 * covers its final transcript; one that belongs to none is a self-turn when Parley was audible in the
 * {@value #TURN_GRACE_MS} ms plus the end-of-turn silence before it, a noise false turn otherwise, if it has words:
 * a turn of nothing or only {@code [unk]} that belongs to no utterance is not counted, since the loop gives it no
 * reply and shows nothing ({@code parley talk} says "heard nothing I could understand"). A question's turn with words
 * is timed from where the user stopped talking ({@link ScheduledSpeech#voiceEndNanos()}) to its final transcript (the
 * end of the turn) and to the first audio of its reply.
 */
final class DuplexAnalysis {
    static final long EARLY_MS = 100;
    static final long LATE_MS = 1500;
    static final long TURN_GRACE_MS = 3000;

    /** Something the simulated user said. */
    record Utterance(ScheduledSpeech speech, String expected, boolean bargeIn) {
    }

    private DuplexAnalysis() {
    }

    /**
     * @param audible  whether Parley's speaker played anything between two nanoTimes
     * @param frontEnd what the audio front end cost per frame over the run
     * @param speculation the loop's speculative replies over the run
     */
    static DuplexTally tally(DuplexEvents events, List<Utterance> said, int trials, int unanswered, int skipped,
                             int noiseTrials, int endSilenceMs, BiPredicate<Long, Long> audible, FrameCost frontEnd,
                             Speculation speculation) {
        long window = (endSilenceMs + TURN_GRACE_MS) * 1_000_000L;
        Set<Utterance> caught = new HashSet<>();
        List<Double> latencies = new ArrayList<>();
        int selfInterruptions = 0;
        int cutUnheard = 0;
        Map<Long, Long> replyStarts = new HashMap<>();
        for (DuplexEvents.ReplyStart r : events.replies()) {
            replyStarts.put(r.turn(), r.nanos());
        }
        for (DuplexEvents.Stop stop : events.stops()) {
            long t = stop.nanos();
            long playing = replyStarts.getOrDefault(stop.turn(), t);
            Utterance cause = null;
            for (Utterance u : said) {
                // user speech can stop a reply that was playing while it was said, until shortly after it ended
                if (playing < u.speech().endNanos() && t >= u.speech().onsetNanos() - EARLY_MS * 1_000_000L
                        && t <= u.speech().endNanos() + LATE_MS * 1_000_000L && !(u.bargeIn() && caught.contains(u))) {
                    cause = u;
                    break;
                }
            }
            if (cause == null) {
                if (replyStarts.containsKey(stop.turn())) {
                    selfInterruptions++;
                } else {
                    cutUnheard++;       // cancelled before any of it played: Parley simply never answers
                }
            } else if (cause.bargeIn()) {
                caught.add(cause);
                long silent = silencedAt(events.holds(), stop, cause.speech().onsetNanos() - EARLY_MS * 1_000_000L);
                latencies.add(Math.max(0, silent - cause.speech().onsetNanos()) / 1e6);
            }
        }
        Set<Utterance> claimed = new HashSet<>();
        List<String> heard = new ArrayList<>(Collections.nCopies(said.size(), (String) null));
        List<Double> endOfTurn = new ArrayList<>();
        List<Double> firstAudio = new ArrayList<>();
        int selfTurns = 0;
        int noiseTurns = 0;
        for (DuplexEvents.UserTurn turn : events.turns()) {
            long t = turn.nanos();
            int owner = -1;
            for (int i = 0; i < said.size(); i++) {
                Utterance u = said.get(i);
                if (!claimed.contains(u) && t >= u.speech().startNanos() && t <= u.speech().endNanos() + window) {
                    owner = i;
                    break;
                }
            }
            if (owner >= 0) {
                Utterance u = said.get(owner);
                claimed.add(u);
                heard.set(owner, turn.text());
                if (!u.bargeIn() && !normalise(turn.text()).replace("[unk]", "").isBlank()) {
                    // a question's turn: from where the user stopped talking to its final transcript, and to the
                    // first audio of its reply (a barge-in's turn is timed from the double talk, so it is left out)
                    long voiceEnd = u.speech().voiceEndNanos();
                    endOfTurn.add((t - voiceEnd) / 1e6);
                    Long played = replyStarts.get(turn.turn());
                    if (played != null) {
                        firstAudio.add((played - voiceEnd) / 1e6);
                    }
                }
            } else if (normalise(turn.text()).replace("[unk]", "").isBlank()) {
                continue;       // no words: no reply, nothing shown
            } else if (audible.test(t - window, t)) {
                selfTurns++;
            } else {
                noiseTurns++;
            }
        }
        int bargeIns = 0;
        int exact = 0;
        for (int i = 0; i < said.size(); i++) {
            Utterance u = said.get(i);
            if (u.bargeIn()) {
                bargeIns++;
                if (heard.get(i) != null && normalise(heard.get(i)).equals(normalise(u.expected()))) {
                    exact++;
                }
            }
        }
        return new DuplexTally(trials, events.replies().size(), unanswered, selfInterruptions, cutUnheard, selfTurns, bargeIns,
                skipped, latencies, exact, noiseTurns, noiseTrials, endOfTurn, firstAudio, frontEnd,
                speculation);
    }

    /**
     * When the reply stopped sounding: the hold (full duplex) that this stop confirmed, if the reply was held
     * since {@code notBefore} without resuming; else the stop itself.
     */
    static long silencedAt(List<DuplexEvents.Hold> holds, DuplexEvents.Stop stop, long notBefore) {
        long since = -1;
        for (DuplexEvents.Hold h : holds) {
            if (h.turn() != stop.turn() || h.nanos() > stop.nanos()) {
                continue;
            }
            if (h.held()) {
                if (since < 0) {
                    since = h.nanos();
                }
            } else {
                since = -1;
            }
        }
        return since >= notBefore ? since : stop.nanos();
    }

    /** Lower case, punctuation dropped (but {@code [unk]} kept), single spaces: how transcripts are compared. */
    static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9'\\[\\] ]", " ").replaceAll("\\s+", " ").strip();
    }
}
