package dev.parley.models.gguf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable little-endian byte buffer for building a GGUF header in memory. */
final class LeBuffer {
    private byte[] bytes = new byte[4096];
    private int size;

    int size() {
        return size;
    }

    byte[] array() {
        return bytes;
    }

    void u8(int v) {
        ensure(1);
        bytes[size++] = (byte) v;
    }

    void u16(int v) {
        ensure(2);
        bytes[size++] = (byte) v;
        bytes[size++] = (byte) (v >> 8);
    }

    void u32(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            bytes[size++] = (byte) (v >> (8 * i));
        }
    }

    void u64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (v >> (8 * i));
        }
    }

    void f32(float v) {
        u32(Float.floatToRawIntBits(v));
    }

    void f64(double v) {
        u64(Double.doubleToRawLongBits(v));
    }

    /** A GGUF string: uint64 byte length, then UTF-8 bytes without a terminator. */
    void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u64(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
    }

    void zeros(int n) {
        ensure(n);
        size += n; // the array is zero-filled and never shrinks, so these bytes are zero
    }

    private void ensure(int n) {
        if (size + n > bytes.length) {
            long want = Math.max((long) bytes.length * 2, (long) size + n);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a GGUF header larger than 2 GiB cannot be built");
            }
            bytes = Arrays.copyOf(bytes, (int) want);
        }
    }
}
