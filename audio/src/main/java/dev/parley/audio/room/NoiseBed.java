package dev.parley.audio.room;

/** The kinds of noise bed {@link NoiseBeds} makes. */
public enum NoiseBed {
    /** A fan or air conditioner: shaped broadband noise with a slow swell, mains hum and blade tones. */
    FAN,
    /** Many people talking at once: overlapping speech snippets at varied levels, speeds and pitches, from afar. */
    BABBLE,
    /** A café: softer babble, dishes and cutlery clinking, chairs scraping. */
    CAFE
}
