package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.Weights;
import dev.parley.engine.tokenizer.Tokenizer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed fuzzing seeds are the bytes {@link GgufSeeds} writes, and each is a valid file, so
 * the fuzzer starts from inputs that reach deep into the reader. After changing GgufSeeds, run this
 * test with {@code -Dparley.writeSeeds=true} to rewrite the files under src/test/resources.
 */
class GgufSeedsTest {

    private static final String DIR = "GgufFuzzTestInputs/openAnyFile/";

    @TempDir
    Path tmp;

    @Test
    void committedSeedsAreTheGeneratedOnes() throws Exception {
        if (Boolean.getBoolean("parley.writeSeeds")) {
            Path out = Path.of("src/test/resources/dev/parley/engine/gguf/" + DIR);
            Files.createDirectories(out);
            for (Map.Entry<String, byte[]> e : GgufSeeds.all().entrySet()) {
                Files.write(out.resolve(e.getKey()), e.getValue());
            }
        }
        for (Map.Entry<String, byte[]> e : GgufSeeds.all().entrySet()) {
            try (InputStream in = GgufSeedsTest.class.getResourceAsStream(DIR + e.getKey())) {
                assertFalse(in == null, "missing seed " + e.getKey() + ": run with -Dparley.writeSeeds=true");
                assertArrayEquals(e.getValue(), in.readAllBytes(), e.getKey() + " differs from GgufSeeds");
            }
        }
    }

    @Test
    void everySeedOpens() throws Exception {
        try (GgufFile f = open("all-types.gguf", GgufSeeds.allTypes())) {
            assertEquals(15, f.metadata().size());
            assertEquals(64, f.alignment());
            assertEquals(34, f.tensorData(f.tensor("q8")).byteSize());
            assertEquals(1L << 40, f.getLong("u64"));
        }
        try (GgufFile f = open("spm.gguf", GgufSeeds.spmVocab())) {
            Tokenizer t = Tokenizer.fromGguf(f);
            assertEquals("the hat", t.decode(t.encode("the hat", false, false)));
        }
        try (GgufFile f = open("bpe.gguf", GgufSeeds.bpeVocab())) {
            Tokenizer t = Tokenizer.fromGguf(f);
            assertEquals(1, t.encode("<|im_end|>", false, true).length);
        }
        try (GgufFile f = open("model.gguf", GgufSeeds.model())) {
            Configuration c = Configuration.fromGguf(f);
            assertEquals(GgufSeeds.VOCAB, c.vocabSize());
            Weights.load(f, c);
        }
    }

    private GgufFile open(String name, byte[] bytes) throws Exception {
        Path p = tmp.resolve(name);
        Files.write(p, bytes);
        return GgufFile.open(p);
    }
}
