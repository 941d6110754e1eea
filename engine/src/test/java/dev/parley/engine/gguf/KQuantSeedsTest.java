package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed seeds of {@link KQuantFuzzTest} are what {@link KQuantSeeds} writes, and the GGUF seed opens with
 * its three K-quant tensors. After changing KQuantSeeds, run with {@code -Dparley.writeSeeds=true}.
 */
class KQuantSeedsTest {

    @Test
    void committedSeedsAreTheGeneratedOnes() throws Exception {
        for (Map.Entry<String, Map<String, byte[]>> m : KQuantSeeds.all().entrySet()) {
            String dir = "KQuantFuzzTestInputs/" + m.getKey() + "/";
            if (Boolean.getBoolean("parley.writeSeeds")) {
                Path out = Path.of("src/test/resources/dev/parley/engine/gguf/" + dir);
                Files.createDirectories(out);
                for (Map.Entry<String, byte[]> e : m.getValue().entrySet()) {
                    Files.write(out.resolve(e.getKey()), e.getValue());
                }
            }
            for (Map.Entry<String, byte[]> e : m.getValue().entrySet()) {
                try (InputStream in = KQuantSeedsTest.class.getResourceAsStream(dir + e.getKey())) {
                    assertFalse(in == null, "missing seed " + e.getKey() + ": run with -Dparley.writeSeeds=true");
                    assertArrayEquals(e.getValue(), in.readAllBytes(), e.getKey() + " differs from KQuantSeeds");
                }
            }
        }
    }

    @Test
    void theGgufSeedOpens(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("k.gguf");
        Files.write(p, KQuantSeeds.file());
        try (GgufFile f = GgufFile.open(p)) {
            assertEquals(GgmlType.Q4_K, f.tensor("a").type());
            assertEquals(2 * 176, f.tensorData(f.tensor("b")).byteSize());
            assertEquals(2 * 210, f.tensorData(f.tensor("c")).byteSize());
        }
    }
}
