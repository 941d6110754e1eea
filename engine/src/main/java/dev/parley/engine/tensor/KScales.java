package dev.parley.engine.tensor;

import java.lang.foreign.MemorySegment;

/**
 * The 6-bit sub-block scales and mins of Q4_K and Q5_K ({@code get_scale_min_k4} in ggml-quants.c): 12 bytes
 * hold 8 scales and 8 mins. For sub-block {@code j < 4}: {@code sc = s[j] & 63}, {@code m = s[j + 4] & 63}; for
 * {@code j >= 4}: {@code sc = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4)},
 * {@code m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4)}.
 */
public final class KScales {

    private KScales() {
    }

    /** Scale of sub-block {@code j} (0..7) from the 12 bytes at {@code at}. */
    public static int scale(MemorySegment seg, long at, int j) {
        if (j < 4) {
            return u8(seg, at + j) & 63;
        }
        return (u8(seg, at + j + 4) & 15) | ((u8(seg, at + j - 4) >>> 6) << 4);
    }

    /** Min of sub-block {@code j} (0..7) from the 12 bytes at {@code at}. */
    public static int min(MemorySegment seg, long at, int j) {
        if (j < 4) {
            return u8(seg, at + j + 4) & 63;
        }
        return (u8(seg, at + j + 4) >>> 4) | ((u8(seg, at + j) >>> 6) << 4);
    }

    /** Unpacks all 8 scales to {@code sc} and mins to {@code m}. */
    public static void unpack(MemorySegment seg, long at, int[] sc, int[] m) {
        for (int j = 0; j < 8; j++) {
            sc[j] = scale(seg, at, j);
            m[j] = min(seg, at, j);
        }
    }

    static int u8(MemorySegment seg, long at) {
        return seg.get(Layouts.I8, at) & 0xff;
    }
}
