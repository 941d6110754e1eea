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
        assertEquals(TUNED.withModelPath("/models/a.gguf"), new AppSettings(used.modelPath(), used.backend(),
                used.threads(), TUNED.contextSize(), used.temperature(), used.topP(), used.maxTokens(),
                used.systemPrompt(), used.voice(), used.speakingRate(), used.inputDevice(), used.outputDevice(),
                used.endOfTurnSilenceMs(), used.pushToTalkKey(), used.theme(), used.weights(), TUNED.kvCache(),
                used.remoteUrl(), used.remoteKey(), used.remoteModel(), used.voskModel(), used.contextPolicy(),
                used.echoCancellation(), used.noiseSuppression(), used.halfDuplex(), used.vad()));
    }

    @Test
    void theEndOfTurnSilenceChangesAlone() {
        AppSettings quick = TUNED.withEndOfTurnSilence(450);
        assertEquals(450, quick.endOfTurnSilenceMs());
        assertEquals(TUNED, quick.withEndOfTurnSilence(TUNED.endOfTurnSilenceMs()));
    }
}
