package dev.parley.engine.gguf;

import java.util.Arrays;
import java.util.Objects;

/**
 * One metadata value with its GGUF type, so that a file can be written back exactly.
 *
 * <p>Scalars are boxed: {@code Byte} (UINT8, INT8), {@code Short} (UINT16, INT16), {@code Integer}
 * (UINT32, INT32), {@code Long} (UINT64, INT64), {@code Float}, {@code Double}, {@code Boolean},
 * {@code String}. Unsigned values keep their bits (use {@link #asLong()} for the unsigned value).
 * Arrays are primitive Java arrays of the element type ({@code byte[]}, {@code short[]},
 * {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}, {@code boolean[]},
 * {@code String[]}), and arrays of arrays are {@code GgufMetadataValue[]} with
 * {@code elementType == ARRAY}.
 *
 * @param type        the value's type
 * @param elementType for arrays, the type of the elements; otherwise null
 * @param value       the value as described above
 */
public record GgufMetadataValue(GgufValueType type, GgufValueType elementType, Object value) {

    public GgufMetadataValue {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        if ((type == GgufValueType.ARRAY) != (elementType != null)) {
            throw new IllegalArgumentException("an element type is required for arrays and only for arrays, found "
                    + type + " of " + elementType);
        }
    }

    public static GgufMetadataValue of(String s) { return new GgufMetadataValue(GgufValueType.STRING, null, s); }
    public static GgufMetadataValue ofUint32(int v) { return new GgufMetadataValue(GgufValueType.UINT32, null, v); }
    public static GgufMetadataValue ofInt32(int v) { return new GgufMetadataValue(GgufValueType.INT32, null, v); }
    public static GgufMetadataValue ofUint64(long v) { return new GgufMetadataValue(GgufValueType.UINT64, null, v); }
    public static GgufMetadataValue ofFloat32(float v) { return new GgufMetadataValue(GgufValueType.FLOAT32, null, v); }
    public static GgufMetadataValue ofBool(boolean v) { return new GgufMetadataValue(GgufValueType.BOOL, null, v); }
    public static GgufMetadataValue ofStrings(String[] v) { return new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.STRING, v); }
    public static GgufMetadataValue ofFloats(float[] v) { return new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.FLOAT32, v); }
    public static GgufMetadataValue ofInt32s(int[] v) { return new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.INT32, v); }

    /** The value as a long: integers (unsigned ones zero-extended) and booleans. */
    public long asLong() {
        return switch (value) {
            case Byte b -> type == GgufValueType.UINT8 ? Byte.toUnsignedLong(b) : b;
            case Short s -> type == GgufValueType.UINT16 ? Short.toUnsignedLong(s) : s;
            case Integer i -> type == GgufValueType.UINT32 ? Integer.toUnsignedLong(i) : i;
            case Long l -> l;
            case Boolean b -> b ? 1 : 0;
            default -> throw new IllegalStateException("expected an integer but found " + describe());
        };
    }

    /** The value as a double: any number. */
    public double asDouble() {
        return switch (value) {
            case Float f -> f;
            case Double d -> d;
            case Number n -> asLong();
            default -> throw new IllegalStateException("expected a number but found " + describe());
        };
    }

    /** A short description for error messages: the type and, for small values, the value. */
    public String describe() {
        if (type == GgufValueType.ARRAY) {
            return "array of " + elementType + " [" + arrayLength() + "]";
        }
        return type + " " + value;
    }

    /** The number of elements of an array value. */
    public int arrayLength() {
        return switch (value) {
            case byte[] a -> a.length;
            case short[] a -> a.length;
            case int[] a -> a.length;
            case long[] a -> a.length;
            case float[] a -> a.length;
            case double[] a -> a.length;
            case boolean[] a -> a.length;
            case Object[] a -> a.length;
            default -> throw new IllegalStateException("not an array: " + describe());
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GgufMetadataValue(var t, var e, var v)
                && t == type && e == elementType && Objects.deepEquals(v, value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, elementType, Arrays.deepHashCode(new Object[] {value}));
    }

    @Override
    public String toString() {
        return describe();
    }
}
