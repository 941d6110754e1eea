package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parley.engine.model.StepBatch;
import org.junit.jupiter.api.Test;

/**
 * The batcher's steps as the GPU runs them: logical blocks of the batcher's pool translated to device blocks (one
 * logical block may span several device blocks of 16 positions), rows and wanted logits kept in order.
 */
class BatchTranslationTest {

    @Test
    void logicalBlocksOf32PositionsBecomeTwoDeviceBlocksEach() {
        // The batcher's pool of 3 logical blocks of 32 got device blocks 9, 4 | 7, 0 | 2, 5.
        int[] physical = {9, 4, 7, 0, 2, 5};
        StepBatch batch = new StepBatch(8, 3);
        batch.setTable(0, new int[] {2, 0, 99}, 2); // slot 0: logical blocks 2 then 0 (99 beyond the count)
        batch.setTable(2, new int[] {1}, 1);
        assertEquals(0, batch.add(0, 11, 40, true));  // decode at position 40 of slot 0
        assertEquals(-1, batch.add(2, 12, 16, false)); // prefill of slot 2 at 16 and 17
        assertEquals(1, batch.add(2, 13, 17, true));
        StepPlan p = CudaBatchForward.plan(batch, physical, 2, 3, 16, 100);
        assertArrayEquals(new int[] {11, 12, 13}, p.tokens());
        assertArrayEquals(new int[] {40, 16, 17}, p.positions());
        // Slot 0's device table: 2, 5, 9, 4; position 40 is its third device block (9), offset 8.
        // Slot 2's device table: 7, 0; position 16 is device block 0, offset 0.
        assertArrayEquals(new int[] {9 * 16 + 8, 0, 1}, p.kvRows());
        assertArrayEquals(new int[] {2, 5, 9, 4, 7, 0}, p.tables());
        assertArrayEquals(new int[] {0, 4, 4}, p.tableStarts());
        assertArrayEquals(new int[] {0, 2}, p.logitRows());
    }

    @Test
    void aBlockOutsideThePoolIsRefused() {
        StepBatch batch = new StepBatch(2, 1);
        batch.setTable(0, new int[] {3}, 1);
        batch.add(0, 1, 0, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CudaBatchForward.plan(batch, new int[] {0, 1, 2}, 1, 3, 16, 100));
        assertEquals("expected block ids from 0 to 2 but found 3", e.getMessage());
    }
}
