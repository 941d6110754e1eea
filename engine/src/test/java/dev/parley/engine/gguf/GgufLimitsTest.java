package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sizes a hostile file claims are refused before anything is allocated for them: each case is a
 * file of a few dozen bytes claiming 2^40 of something, and opening it must fail with a message
 * saying so while allocating less than a megabyte on the heap (measured by the JVM's per-thread
 * allocation counter).
 */
class GgufLimitsTest {

    private static final long HUGE = 1L << 40;
    private static final long ALLOCATION_LIMIT = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void aTensorDimensionOfTwoToTheFortyIsRefused() throws Exception {
        refused(() -> GgufBytes.header(1, 0).tensor("t", GgmlType.F32, 0, HUGE).pad(32),
                "expected dimension 0 of tensor 't' to be between 1 and what the file");
    }

    @Test
    void dimensionsWhoseProductIsHugeAreRefused() throws Exception {
        refused(() -> GgufBytes.header(1, 0).tensor("t", GgmlType.F32, 0, 1 << 20, 1 << 20, 1 << 20).pad(32),
                "to be between 1 and what the file");
    }

    @Test
    void hugeCountsAreRefused() throws Exception {
        refused(() -> GgufBytes.header(HUGE, 0), "expected a tensor count that fits in the file");
        refused(() -> GgufBytes.header(0, HUGE), "expected a metadata count that fits in the file");
    }

    @Test
    void aHugeArrayIsRefused() throws Exception {
        refused(() -> GgufBytes.header(0, 1).arrayOf("a", GgufValueType.FLOAT32, HUGE).f32(1),
                "array 'a' claims 1099511627776 elements of FLOAT32 but only 4 bytes are left");
        refused(() -> GgufBytes.header(0, 1).arrayOf("s", GgufValueType.STRING, HUGE).string("x"),
                "array 's' claims 1099511627776 elements of STRING");
    }

    @Test
    void aHugeStringIsRefused() throws Exception {
        refused(() -> GgufBytes.header(0, 1).u64(HUGE).raw(new byte[8]),
                "expected metadata key #0 to fit in the file but its length is 1099511627776");
    }

    @Test
    void deeplyNestedArraysAreRefused() throws Exception {
        refused(() -> {
            GgufBytes b = GgufBytes.header(0, 1).arrayOf("n", GgufValueType.ARRAY, 1);
            for (int i = 0; i < 20; i++) {
                b.u32(GgufValueType.ARRAY.id()).u64(1);
            }
            return b;
        }, "nests arrays deeper than 8 levels");
    }

    private void refused(Supplier<GgufBytes> file, String expected) throws Exception {
        Path p = dir.resolve("hostile.gguf");
        Files.write(p, file.get().toByteArray());
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThrows(GgufException.class, () -> GgufFile.open(p).close()); // once first: class loading allocates too
        long before = threads.getCurrentThreadAllocatedBytes();
        GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close());
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(allocated < ALLOCATION_LIMIT, "allocated " + allocated + " bytes before refusing: " + e.getMessage());
    }
}
