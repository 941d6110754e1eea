package dev.parley.engine.tokenizer;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgufFile;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Loads the tokenizer of a vocab fixture in ../shared/fixtures/tokenizer (skips the test when absent). */
final class FixtureTokenizers {

    private FixtureTokenizers() {
    }

    static Tokenizer load(String vocabFile) {
        try (GgufFile gguf = GgufFile.open(SharedFixtures.require("tokenizer/" + vocabFile))) {
            return Tokenizer.fromGguf(gguf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int[] concat(int[]... parts) {
        return java.util.Arrays.stream(parts).flatMapToInt(java.util.Arrays::stream).toArray();
    }
}
