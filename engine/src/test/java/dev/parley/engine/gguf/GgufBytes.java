package dev.parley.engine.gguf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes GGUF bytes field by field, for tests that need small valid files (fuzzing seeds) or files
 * broken in one precise place (limit tests). Nothing is checked: the point is to write what the
 * reader must cope with.
 */
final class GgufBytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Magic, version 3, then the two counts. */
    static GgufBytes header(long tensorCount, long kvCount) {
        GgufBytes b = new GgufBytes();
        b.out.writeBytes("GGUF".getBytes(StandardCharsets.US_ASCII));
        return b.u32(3).u64(tensorCount).u64(kvCount);
    }

    GgufBytes u8(int v) {
        out.write(v);
        return this;
    }

    GgufBytes u16(int v) {
        out.writeBytes(ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort((short) v).array());
        return this;
    }

    GgufBytes u32(int v) {
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
        return this;
    }

    GgufBytes u64(long v) {
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
        return this;
    }

    GgufBytes f32(float v) {
        return u32(Float.floatToIntBits(v));
    }

    GgufBytes f64(double v) {
        return u64(Double.doubleToLongBits(v));
    }

    GgufBytes string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u64(b.length);
        out.writeBytes(b);
        return this;
    }

    /** A metadata key and its type id; the caller writes the value next. */
    GgufBytes key(String key, GgufValueType type) {
        return string(key).u32(type.id());
    }

    /** An array header: element type and length; the caller writes the elements next. */
    GgufBytes arrayOf(String key, GgufValueType element, long length) {
        return key(key, GgufValueType.ARRAY).u32(element.id()).u64(length);
    }

    /** A tensor info: name, dimensions, type and data offset. */
    GgufBytes tensor(String name, GgmlType type, long offset, long... dims) {
        string(name).u32(dims.length);
        for (long d : dims) {
            u64(d);
        }
        return u32(type.id()).u64(offset);
    }

    /** Zero bytes up to the next multiple of {@code alignment}. */
    GgufBytes pad(int alignment) {
        while (out.size() % alignment != 0) {
            out.write(0);
        }
        return this;
    }

    GgufBytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    int size() {
        return out.size();
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
