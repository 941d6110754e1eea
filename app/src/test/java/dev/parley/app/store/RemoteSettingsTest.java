package dev.parley.app.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote server setting: stored with the others, empty by default, and a URL that is not one is refused. */
class RemoteSettingsTest {

    @Test
    void theRemoteServerIsStoredAndOffByDefault(@TempDir Path dir) throws Exception {
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        AppSettings defaults = store.load();
        assertFalse(defaults.usesRemote());
        assertEquals("", defaults.remoteUrl());

        AppSettings remote = defaults.withRemote(" http://127.0.0.1:8080/v1 ", "key", "tiny");
        store.save(remote);
        AppSettings back = store.load();
        assertEquals(remote, back);
        assertTrue(back.usesRemote());
        assertEquals("http://127.0.0.1:8080/v1", back.remoteUrl());
        assertEquals("tiny", back.withSampling(0.1, 0.9, 10).remoteModel(), "other edits keep the remote fields");

        Files.writeString(store.file(), "{\"remoteUrl\": \"localhost:8080\"}");
        var e = assertThrows(java.io.IOException.class, store::load);
        assertTrue(e.getMessage().contains("remote server URL"), e.getMessage());
    }
}
