package dev.parley.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.model.Architecture;
import dev.parley.engine.model.Configuration;
import org.junit.jupiter.api.Test;

/** The CUDA backend's host-side planning, checked without a GPU: launch grids, buffer sizes, KV pages, step rows. */
class HostPlanningTest {

    /** meta-llama/Llama-3.2-1B's shape: 2048 wide, 16 layers, 32 heads, 8 KV heads of 64, FFN 8192, vocab 128256. */
    static final Configuration LLAMA_1B = new Configuration(Architecture.LLAMA, 2048, 16, 32, 8, 64, 8192,
            1e-5f, 500000f, 1f, 64, 131072, 128256, true, true);

    @Test
    void matmulGridsCoverEveryOutputOnceWithTheKernelForTheBatch() {
        for (int rows : new int[] {1, 3, 4, 64, 65, 2048, 128256}) {
            for (int count = 1; count <= 70; count++) {
                LaunchGrid g = KernelGrids.matmul(rows, count);
                if (count <= 8) {
                    assertEquals(Kernel.MMV_Q8, KernelGrids.matmulKernel(count));
                    assertEquals(128, g.blockX());
                    assertCovers(rows, g.gridX(), KernelGrids.MMV_ROWS);
                    assertCovers(count, g.gridY(), KernelGrids.MMV_TOKENS);
                } else {
                    assertEquals(Kernel.MMQ_Q8, KernelGrids.matmulKernel(count));
                    assertEquals(256, g.blockX(), "mmq_q8 assumes 16 x 16 threads");
                    assertCovers(rows, g.gridX(), KernelGrids.MMQ_ROWS);
                    assertCovers(count, g.gridY(), KernelGrids.MMQ_TOKENS);
                }
            }
        }
    }

    private static void assertCovers(int n, int blocks, int per) {
        assertTrue((long) blocks * per >= n && (long) (blocks - 1) * per < n,
                blocks + " blocks of " + per + " for " + n);
    }

    @Test
    void otherGridsMatchTheKernelsAssumptions() {
        LaunchGrid q = KernelGrids.quantize(3 * 2048);
        assertEquals(3 * 2048, q.threads(), "one thread per value, whole warps per block of 32");
        assertThrows(IllegalArgumentException.class, () -> KernelGrids.quantize(48));
        LaunchGrid r = KernelGrids.rope(5, 32 + 8, 32);
        assertEquals(5, r.gridX());
        assertEquals(40, r.gridY());
        assertEquals(32, r.blockX());
        assertEquals(64, KernelGrids.rope(1, 1, 33).blockX(), "pairs rounded up to whole warps");
        LaunchGrid a = KernelGrids.attention(7, 32, 64);
        assertEquals(7, a.gridX());
        assertEquals(32, a.gridY());
        assertEquals(128, a.blockX(), "four warps");
        assertThrows(IllegalArgumentException.class, () -> KernelGrids.attention(1, 1, 257));
        assertEquals(256, KernelGrids.sampling(3).blockX(), "argmax/softmax reduce over 256 threads");
        LaunchGrid s = KernelGrids.perValueOfRows(8192, 12);
        assertEquals(32, s.gridX());
        assertEquals(12, s.gridY());
    }

    @Test
    void devicePlanSizesTheKvCacheAndBuffersOfLlama1B() {
        DevicePlan p = new DevicePlan(LLAMA_1B, 256, 4096, 16);
        assertEquals(2048 + 2 * 512, p.qkvWidth());
        assertEquals(16384, p.gateUpWidth());
        assertEquals(8192, p.maxInput());
        assertEquals(65536, p.kvPositions());
        // FP16 keys of 8 heads x 64 per position and layer.
        assertEquals(65536L * 512 * 2, p.kvLayerBytes());
        assertEquals(2 * 16 * 65536L * 512 * 2, p.kvBytes());
        long floats = 4L * 2048 + 3072 + 2048 + 16384 + 8192 + 128256;
        long expected = floats * 256 * 4 + 256L * 8192 + 256L * 256 * 4 + 4L * (5 * 256 + 4096 + 1) + 4L * 256;
        assertEquals(expected, p.activationBytes());
        assertEquals(4096, DevicePlan.kvBlocksFitting(LLAMA_1B, p.kvBytes(), 16));
        assertEquals(4095, DevicePlan.kvBlocksFitting(LLAMA_1B, p.kvBytes() - 1, 16));
    }

    @Test
    void devicePlanRefusesShapesTheKernelsCannotRun() {
        Configuration wideHead = new Configuration(Architecture.LLAMA, 512, 1, 1, 1, 512, 1024, 1e-5f,
                10000f, 1f, 512, 128, 64, true, false);
        assertThrows(IllegalArgumentException.class, () -> new DevicePlan(wideHead, 1, 1, 16));
        Configuration odd = new Configuration(Architecture.LLAMA, 48, 1, 3, 1, 16, 96, 1e-5f, 10000f, 1f,
                16, 128, 64, true, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DevicePlan(odd, 1, 1, 16));
        assertTrue(e.getMessage().contains("multiples of 32"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DevicePlan(LLAMA_1B, DevicePlan.ROW_LIMIT + 1, 1, 16));
    }

    @Test
    void cudaOptionsTakeWhatFitsOrWhatWasAskedFor() {
        long perBlock = 2L * 16 * 512 * 2 * 16;
        assertEquals(CudaOptions.AUTO_POSITIONS / 16, CudaOptions.defaults().kvBlocks(LLAMA_1B, 1L << 40));
        assertEquals((int) (100 * perBlock * 0.8) / perBlock, CudaOptions.defaults().kvBlocks(LLAMA_1B, 100 * perBlock));
        assertEquals(2, new CudaOptions(8, 17).kvBlocks(LLAMA_1B, 100 * perBlock), "17 positions: 2 blocks");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CudaOptions(8, 1600).kvBlocks(LLAMA_1B, 50 * perBlock));
        assertTrue(e.getMessage().startsWith("GPU memory: expected room for a KV cache of 1600 positions"), e.getMessage());
    }

    @Test
    void blockTablesGrowFromThePoolAndGiveBlocksBack() {
        KvBlockPool pool = new KvBlockPool(5);
        BlockTable a = new BlockTable(pool, 16);
        BlockTable b = new BlockTable(pool, 16);
        a.reserve(17);
        b.reserve(16);
        a.reserve(33);
        assertArrayEquals(new int[] {0, 1, 3}, a.ids());
        assertArrayEquals(new int[] {2}, b.ids());
        assertEquals(48, a.capacity());
        assertEquals(1, pool.available());
        a.release();
        assertEquals(4, pool.available());
        b.reserve(64);
        assertArrayEquals(new int[] {2, 0, 1, 3}, b.ids());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.reserve(81));
        assertEquals("KV cache full: expected a free block of 5 but found none", e.getMessage());
        assertEquals(5, b.blocks(), "the blocks taken before the pool ran out stay in the table");
        assertThrows(IllegalArgumentException.class, () -> pool.free(5));
        b.release();
        assertThrows(IllegalArgumentException.class, () -> pool.free(2), "already free");
    }

    @Test
    void stepPlanPlacesEachRowInItsSequencesBlocks() {
        int[][] tables = {{7, 2}, {5}, {0, 1, 3}};
        // Sequence 0 decodes position 17, sequence 2 prefills 40 and 41, sequence 1 decodes position 3.
        StepPlan p = StepPlan.build(new int[] {11, 12, 13, 14}, new int[] {17, 40, 41, 3}, new int[] {0, 2, 2, 1}, tables,
                new boolean[] {true, false, true, true}, 16, 100);
        assertEquals(4, p.rows());
        assertArrayEquals(new int[] {2 * 16 + 1, 3 * 16 + 8, 3 * 16 + 9, 5 * 16 + 3}, p.kvRows());
        assertArrayEquals(new int[] {7, 2, 5, 0, 1, 3}, p.tables());
        assertArrayEquals(new int[] {0, 3, 3, 2}, p.tableStarts());
        assertArrayEquals(new int[] {0, 2, 3}, p.logitRows());
        IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> StepPlan.build(new int[] {1},
                new int[] {16}, new int[] {1}, tables, new boolean[] {true}, 16, 100));
        assertEquals("row 0: expected a position from 0 to 15 (the blocks of sequence 1) but found 16", beyond.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> StepPlan.build(new int[] {100}, new int[] {0}, new int[] {0},
                tables, new boolean[] {true}, 16, 100));
        assertThrows(IllegalArgumentException.class, () -> StepPlan.build(new int[] {1}, new int[] {0}, new int[] {3},
                tables, new boolean[] {true}, 16, 100));
    }

    @Test
    void ropePowersAreBuiltByRepeatedMultiplicationInFloat() {
        float[] p = CudaWeights.ropePowers(LLAMA_1B);
        assertEquals(32, p.length);
        assertEquals(1f, p[0]);
        float s = (float) Math.pow(500000.0, -2.0 / 64);
        float expect = 1f;
        for (int i = 0; i < p.length; i++) {
            assertEquals(expect, p[i], "power " + i);
            expect *= s;
        }
    }
}
