package dev.parley.audio.capture;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files too large to read into memory are refused before anything is read. */
class WavReaderLimitsTest {

    @Test
    void aFileLargerThanTheLimitIsRefusedBeforeReading(@TempDir Path dir) throws IOException {
        Path huge = dir.resolve("huge.wav");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(WavReader.MAX_FILE_BYTES + 1); // sparse: no disk space, and reading it would need 1 GiB of heap
        }
        IOException e = assertThrows(IOException.class, () -> WavReader.read(huge));
        assertTrue(e.getMessage().contains("expected a WAV file of at most 1024 MiB"), e.getMessage());
    }
}
