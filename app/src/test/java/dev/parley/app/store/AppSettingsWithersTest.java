package dev.parley.app.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parley.engine.model.KvFormat;
import org.junit.jupiter.api.Test;

/** Each {@code with...} changes what it names and keeps every other setting (the voice front end included). */
class AppSettingsWithersTest {

    private static final AppSettings TUNED = AppSettings.defaults().withVoiceFrontEnd("off", "high", true, "silero")
            .withRemote("http://127.0.0.1:8080/v1", "k", "m");

    @Test
    void usingAModelKeepsTheVoiceFrontEnd() {
        AppSettings used = TUNED.withModel("/models/a.gguf", 2048, KvFormat.INT8);
        assertEquals("/models/a.gguf", used.modelPath());
        assertEquals(2048, used.contextSize());
        assertEquals(KvFormat.INT8, used.kvCache());
        // set back to TUNED's context and KV precision, it must equal TUNED with only the path changed: every other
        // field (the voice front end and the VAD among them) kept
        assertEquals(TUNED.withModelPath("/models/a.gguf"), used.withModel("/models/a.gguf", TUNED.contextSize(),
                TUNED.kvCache()));
    }

    @Test
    void theEndOfTurnSilenceChangesAlone() {
        AppSettings quick = TUNED.withEndOfTurnSilence(450);
        assertEquals(450, quick.endOfTurnSilenceMs());
        assertEquals(TUNED, quick.withEndOfTurnSilence(TUNED.endOfTurnSilenceMs()));
    }
}
