package dev.parley.audio.device;

/**
 * A microphone or speaker that cannot be used right now: it is absent, busy or stopped delivering mid-turn. The voice
 * loop keeps running and tries the device again every {@code retryMillis} or sooner.
 *
 * @param kind        which end of the loop
 * @param device      the device as the user chose it ("the default audio device", "'USB Mic'")
 * @param problem     what happened, from the system's own error where there is one
 * @param retryMillis the longest wait before the next try
 */
public record DeviceFault(Kind kind, String device, String problem, long retryMillis) {
    /** The two ends of the voice loop. */
    public enum Kind {
        MICROPHONE("microphone"), SPEAKER("speaker");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** Lower case, for messages. */
        public String word() {
            return word;
        }
    }

    /** One line for the voice bar and {@code parley talk}. */
    public String message() {
        String effect = kind == Kind.MICROPHONE
                ? "Parley is not listening (typed chat still works)"
                : "Replies are shown as text only";
        return "The " + kind.word() + " (" + device + ") is unavailable: " + problem + ". " + effect
                + ". Parley retries every " + seconds(retryMillis) + " and carries on by itself when it is back.";
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
