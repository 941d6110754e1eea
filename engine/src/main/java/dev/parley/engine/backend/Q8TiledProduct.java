package dev.parley.engine.backend;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The 512-bit Q8_0 x float product over a range of weight rows: rows in tiles of {@link #ROW_TILE} kept in L1/L2
 * while every group of 4 activation rows (in L1) passes over them through the 3 x 4 micro-kernel of
 * {@link Q8TileKernels}; the leftover tokens (fewer than 4) through the 3 x T kernels, leftover rows through
 * the 2- and 1-row kernels of {@link Q8FloatKernels}. All give each (row, token) the same bits.
 */
final class Q8TiledProduct {

    /** Weight rows per tile: 48 rows of 576 columns are 29 KiB (L1), of 4864 columns 242 KiB (L2). */
    static final int ROW_TILE = 48;
    static final int TOKENS = 4;

    private Q8TiledProduct() {
    }

    /**
     * {@code out[t * rows + r]} for rows {@code [from, to)} of the Q8_0 matrix {@code w} ({@code rowBytes} per row,
     * {@code blocks} blocks) and every activation row t below {@code count} of the dequantized activations
     * {@code x} (row length {@code dim}).
     */
    static void rows(MemorySegment w, long rowBytes, int rows, int blocks, float[] x, int dim, int count,
                     float[] out, int from, int to) {
        if (count == 1) {
            decodeRows(w, rowBytes, rows, blocks, x, out, from, to);
            return;
        }
        int touched = 0;
        for (int r0 = from; r0 < to; r0 += ROW_TILE) {
            int r1 = Math.min(to, r0 + ROW_TILE);
            touched += touch(w, r0 * rowBytes, (r1 - r0) * rowBytes);
            int t = 0;
            for (; t + TOKENS <= count; t += TOKENS) {
                int r = r0;
                for (; r + 3 <= r1; r += 3) {
                    Q8TileKernels.r3x4(w, r * rowBytes, rowBytes, blocks, x, dim, t, out, rows, r);
                }
                if (r + 2 == r1) {
                    Q8FloatKernels.dotQ8_0r2x4w512(w, r * rowBytes, rowBytes, blocks, x, dim, t, out, rows, r);
                } else if (r + 1 == r1) {
                    Q8FloatKernels.dotQ8_0x4w512(w, r * rowBytes, blocks, x, dim, t, out, rows, r);
                }
            }
            int left = count - t;
            if (left > 0) {
                int r = r0;
                for (; left > 1 && r + 3 <= r1; r += 3) {
                    if (left == 3) {
                        Q8TileKernels.r3x3(w, r * rowBytes, rowBytes, blocks, x, dim, t, out, rows, r);
                    } else {
                        Q8TileKernels.r3x2(w, r * rowBytes, rowBytes, blocks, x, dim, t, out, rows, r);
                    }
                }
                for (; r < r1; r++) {
                    for (int u = t; u < count; u++) {
                        out[u * rows + r] = Q8FloatKernels.dotQ8_0w512(w, r * rowBytes, blocks, x, u * dim);
                    }
                }
            }
        }
        sink = touched;
    }

    private static final VectorSpecies<Byte> B512 = ByteVector.SPECIES_512;
    /** Keeps the JIT from dropping {@link #touch}'s loads. */
    @SuppressWarnings("unused")
    private static int sink;

    /**
     * Reads {@code bytes} at {@code offset} once, front to back, with 64-byte loads: the tile's rows are contiguous,
     * so this one sequential stream brings them into cache at the streaming bandwidth, where the micro-kernels'
     * three interleaved row streams measured about half of it from memory (Q8MatmulBench decodeRows3 vs product).
     */
    static int touch(MemorySegment w, long offset, long bytes) {
        long end = offset + bytes - 64;
        ByteVector acc = ByteVector.zero(B512);
        long o = offset;
        for (; o <= end; o += 64) {
            acc = acc.or(ByteVector.fromMemorySegment(B512, w, o, ByteOrder.LITTLE_ENDIAN));
        }
        return acc.reinterpretAsInts().lane(0);
    }

    /**
     * One token: the one-row kernel. (Three rows per pass, {@code Q8TileKernels.r3x1}, was as fast in JMH but
     * several times slower inside the engine's decode loop, for a reason not found yet.)
     */
    private static void decodeRows(MemorySegment w, long rowBytes, int rows, int blocks, float[] x, float[] out,
                                   int from, int to) {
        for (int r = from; r < to; r++) {
            out[r] = Q8FloatKernels.dotQ8_0w512(w, r * rowBytes, blocks, x, 0);
        }
    }
}
