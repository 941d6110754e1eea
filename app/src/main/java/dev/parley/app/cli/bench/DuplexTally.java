package dev.parley.app.cli.bench;

import dev.parley.audio.Speculation;
import dev.parley.audio.frontend.FrameCost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The counts of a duplex run (one condition, or all of them summed).
 *
 * @param trials            trials run
 * @param replies           replies that started playing
 * @param unanswered        questions that never got a reply
 * @param selfInterruptions replies stopped while no user speech was scheduled
 * @param cutUnheard        replies cancelled the same way before any of their audio played
 * @param selfTurns         user turns that began while no user speech was scheduled and Parley was audible
 * @param bargeIns          barge-ins said while a reply played
 * @param skipped           barge-ins not said because the reply had already ended
 * @param latenciesMs       for each barge-in caught, user speech onset to playback stop
 * @param exact             barge-ins whose turn's final transcript equals their transcript file
 * @param noiseFalseTurns   user turns that began while nobody spoke and Parley was silent
 * @param noiseTrials       trials in which nobody spoke during and after the reply
 * @param endOfTurnMs       for each question heard with words, the user's voice end to the turn's final transcript
 * @param firstAudioMs      for each of those that got a reply, the user's voice end to the reply's first audio
 * @param frontEnd          what the audio front end cost per 10 ms frame
 * @param speculation       replies started speculatively before the end of a turn, and those its final transcript confirmed
 */
record DuplexTally(int trials, int replies, int unanswered, int selfInterruptions, int cutUnheard, int selfTurns, int bargeIns,
                   int skipped,
                   List<Double> latenciesMs, int exact, int noiseFalseTurns, int noiseTrials, List<Double> endOfTurnMs,
                   List<Double> firstAudioMs, FrameCost frontEnd, Speculation speculation) {
    DuplexTally {
        latenciesMs = List.copyOf(latenciesMs);
        endOfTurnMs = List.copyOf(endOfTurnMs);
        firstAudioMs = List.copyOf(firstAudioMs);
        frontEnd = frontEnd.copy();
    }

    int detected() {
        return latenciesMs.size();
    }

    DuplexTally plus(DuplexTally o) {
        return new DuplexTally(trials + o.trials, replies + o.replies, unanswered + o.unanswered,
                selfInterruptions + o.selfInterruptions, cutUnheard + o.cutUnheard, selfTurns + o.selfTurns, bargeIns + o.bargeIns, skipped + o.skipped,
                joined(latenciesMs, o.latenciesMs), exact + o.exact, noiseFalseTurns + o.noiseFalseTurns, noiseTrials + o.noiseTrials,
                joined(endOfTurnMs, o.endOfTurnMs), joined(firstAudioMs, o.firstAudioMs), frontEnd.plus(o.frontEnd),
                new Speculation(speculation.started() + o.speculation.started(),
                        speculation.confirmed() + o.speculation.confirmed()));
    }

    private static List<Double> joined(List<Double> a, List<Double> b) {
        List<Double> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    static DuplexTally empty() {
        return new DuplexTally(0, 0, 0, 0, 0, 0, 0, 0, List.of(), 0, 0, 0, List.of(), List.of(), new FrameCost(), new Speculation(0, 0));
    }

    double medianMs() {
        return percentile(latenciesMs, 0.5);
    }

    double p90Ms() {
        return percentile(latenciesMs, 0.9);
    }

    /** Nearest-rank percentile {@code q} of {@code values}; 0 when there are none. */
    static double percentile(List<Double> values, double q) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> s = values.stream().sorted().toList();
        int rank = (int) Math.ceil(q * s.size());
        return s.get(Math.max(0, Math.min(s.size() - 1, rank - 1)));
    }

    /** The five final lines of {@code bench duplex}, exactly as specified. */
    List<String> finalLines() {
        return List.of(
                "self_interruptions=" + selfInterruptions + " replies=" + replies,
                "self_turns=" + selfTurns,
                String.format(Locale.ROOT, "barge_in detected=%d of=%d median_ms=%.0f p90_ms=%.0f", detected(), bargeIns,
                        medianMs(), p90Ms()),
                "barge_in_transcript exact=" + exact + " of=" + bargeIns,
                "noise_false_turns=" + noiseFalseTurns + " noise_trials=" + noiseTrials);
    }
}
