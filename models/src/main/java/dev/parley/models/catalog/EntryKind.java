package dev.parley.models.catalog;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What a catalog entry is: a language model, a speech recognizer, a text-to-speech voice, or a voice-activity model. */
public enum EntryKind {
    LLM("llm"),
    ASR("asr"),
    TTS_VOICE("tts-voice"),
    /** A voice-activity detector's model (the Silero VAD's ONNX file): one file, no archive. */
    VAD("vad");

    private final String jsonName;

    EntryKind(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in the catalog file. */
    public String jsonName() {
        return jsonName;
    }

    /** Parses the catalog name; throws with the accepted names when {@code name} is none of them. */
    public static EntryKind fromJson(String name) {
        for (EntryKind k : values()) {
            if (k.jsonName.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("expected kind " + Arrays.stream(values()).map(EntryKind::jsonName)
                .collect(Collectors.joining(", ")) + " but found '" + name + "'");
    }
}
