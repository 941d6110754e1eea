package dev.parley.models.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ModelShapeTest {
    @Test
    void parityFixtureShapeGivesItsTensorElementCount() {
        // m1-llama-spm-q8_0: 256/4/8/4/32/704, vocab 32000, untied, no biases
        ModelShape m1 = new ModelShape(256, 4, 8, 4, 32, 704, 32000, false, false);
        long perLayer = 256L * 256 + 2L * 256 * 128 + 256L * 256 + 3L * 256 * 704 + 2 * 256;
        assertEquals(2L * 32000 * 256 + 4 * perLayer + 256, m1.parameterCount());
        assertEquals(2L * 4 * 4 * 32 * 4, m1.kvBytesPerToken());
    }

    @Test
    void rejectsHeadsThatDoNotGroup() {
        assertThrows(IllegalArgumentException.class, () -> new ModelShape(256, 4, 8, 3, 32, 704, 100, false, false));
    }
}
