package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A general.alignment of a non-integer type must be a GgufException, not an IllegalStateException. */
class GgufAlignmentKeyTest {

    @TempDir
    Path dir;

    @Test
    void floatAlignmentIsAGgufException() throws Exception {
        byte[] key = "general.alignment".getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x46554747).putInt(3).putLong(0).putLong(1);
        b.putLong(key.length).put(key).putInt(GgufValueType.FLOAT32.id()).putFloat(32f);
        Path p = dir.resolve("float-alignment.gguf");
        Files.write(p, b.array());
        GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close());
        assertTrue(e.getMessage().contains("expected general.alignment to be a power of two"), e.getMessage());
        assertTrue(e.getMessage().contains("FLOAT32 32.0"), e.getMessage());
    }
}
