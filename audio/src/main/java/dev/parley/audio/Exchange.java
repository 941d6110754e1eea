package dev.parley.audio;

import java.util.List;

/**
 * One finished voice turn for the conversation history.
 *
 * @param turn        turn number, from 1
 * @param userText    what the user said (final transcript)
 * @param replyText   all reply text the responder produced (until cancelled, if interrupted)
 * @param spoken      the reply's sentences whose audio started playing
 * @param interrupted whether the user barged in before the reply finished
 * @param latency     the turn's stage stamps
 */
public record Exchange(long turn, String userText, String replyText, List<String> spoken, boolean interrupted,
                       TurnLatency latency) {
    public Exchange {
        spoken = List.copyOf(spoken);
    }
}
