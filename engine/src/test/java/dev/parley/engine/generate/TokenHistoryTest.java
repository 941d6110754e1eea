package dev.parley.engine.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TokenHistoryTest {

    @Test
    void reusesTheCommonPrefixButAlwaysLeavesOneTokenToFeed() {
        TokenHistory h = new TokenHistory();
        h.append(new int[] {1, 2, 3, 4, 5});
        assertEquals(3, h.reusablePrefix(new int[] {1, 2, 3, 9, 9, 9}));
        assertEquals(5, h.reusablePrefix(new int[] {1, 2, 3, 4, 5, 6, 7}));
        assertEquals(4, h.reusablePrefix(new int[] {1, 2, 3, 4, 5}), "identical prompt: re-feed the last token");
        assertEquals(0, h.reusablePrefix(new int[] {7, 2, 3}));
        assertEquals(0, h.reusablePrefix(new int[] {1}));
    }

    @Test
    void truncateAndAppendKeepTheOrder() {
        TokenHistory h = new TokenHistory();
        int[] many = new int[1000];
        for (int i = 0; i < many.length; i++) {
            many[i] = i;
        }
        h.append(many, 10, 700);
        assertEquals(690, h.size());
        h.truncate(2);
        h.append(new int[] {42});
        assertArrayEquals(new int[] {10, 11, 42}, h.toArray());
        assertThrows(IllegalArgumentException.class, () -> h.truncate(4));
        h.clear();
        assertEquals(0, h.size());
    }
}
