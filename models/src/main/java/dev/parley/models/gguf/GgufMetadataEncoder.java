package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufValueType;

/**
 * Writes {@link GgufMetadataValue}s in GGUF's binary form, checking that each Java value matches
 * its declared GGUF type (the inverse of the engine's reader, so read -> write is exact).
 */
final class GgufMetadataEncoder {
    private GgufMetadataEncoder() {
    }

    /** Checks that {@code v} can be written; throws IllegalArgumentException naming {@code key} when not. */
    static void validate(String key, GgufMetadataValue v) {
        validate(key, v, 0);
    }

    private static void validate(String key, GgufMetadataValue v, int depth) {
        if (v.type() != GgufValueType.ARRAY) {
            if (!scalarClass(v.type()).isInstance(v.value())) {
                throw mismatch(key, v.type().toString(), v.value());
            }
            return;
        }
        if (depth >= 8) {
            throw new IllegalArgumentException("metadata '" + key + "' nests arrays deeper than 8 levels, which readers refuse");
        }
        Class<?> want = arrayClass(v.elementType());
        if (!want.isInstance(v.value())) {
            throw mismatch(key, "array of " + v.elementType(), v.value());
        }
        if (v.elementType() == GgufValueType.ARRAY) {
            GgufMetadataValue[] inner = (GgufMetadataValue[]) v.value();
            for (int i = 0; i < inner.length; i++) {
                if (inner[i] == null || inner[i].type() != GgufValueType.ARRAY) {
                    throw new IllegalArgumentException("metadata '" + key + "[" + i + "]': expected an array element but found "
                            + (inner[i] == null ? "null" : inner[i].describe()));
                }
                validate(key + "[" + i + "]", inner[i], depth + 1);
            }
        } else if (v.value() instanceof String[] s) {
            for (int i = 0; i < s.length; i++) {
                if (s[i] == null) {
                    throw new IllegalArgumentException("metadata '" + key + "[" + i + "]': expected a string but found null");
                }
            }
        }
    }

    static void write(LeBuffer out, GgufMetadataValue v) {
        switch (v.type()) {
            case UINT8, INT8 -> out.u8((Byte) v.value());
            case UINT16, INT16 -> out.u16((Short) v.value());
            case UINT32, INT32 -> out.u32((Integer) v.value());
            case UINT64, INT64 -> out.u64((Long) v.value());
            case FLOAT32 -> out.f32((Float) v.value());
            case FLOAT64 -> out.f64((Double) v.value());
            case BOOL -> out.u8((Boolean) v.value() ? 1 : 0);
            case STRING -> out.string((String) v.value());
            case ARRAY -> writeArray(out, v);
        }
    }

    private static void writeArray(LeBuffer out, GgufMetadataValue v) {
        out.u32(v.elementType().id());
        out.u64(v.arrayLength());
        switch (v.value()) {
            case byte[] a -> { for (byte x : a) out.u8(x); }
            case short[] a -> { for (short x : a) out.u16(x); }
            case int[] a -> { for (int x : a) out.u32(x); }
            case long[] a -> { for (long x : a) out.u64(x); }
            case float[] a -> { for (float x : a) out.f32(x); }
            case double[] a -> { for (double x : a) out.f64(x); }
            case boolean[] a -> { for (boolean x : a) out.u8(x ? 1 : 0); }
            case String[] a -> { for (String x : a) out.string(x); }
            case GgufMetadataValue[] a -> { for (GgufMetadataValue x : a) writeArray(out, x); }
            default -> throw new IllegalArgumentException("not an array value: " + v.describe());
        }
    }

    private static Class<?> scalarClass(GgufValueType t) {
        return switch (t) {
            case UINT8, INT8 -> Byte.class;
            case UINT16, INT16 -> Short.class;
            case UINT32, INT32 -> Integer.class;
            case UINT64, INT64 -> Long.class;
            case FLOAT32 -> Float.class;
            case FLOAT64 -> Double.class;
            case BOOL -> Boolean.class;
            case STRING -> String.class;
            case ARRAY -> GgufMetadataValue[].class;
        };
    }

    private static Class<?> arrayClass(GgufValueType t) {
        return switch (t) {
            case UINT8, INT8 -> byte[].class;
            case UINT16, INT16 -> short[].class;
            case UINT32, INT32 -> int[].class;
            case UINT64, INT64 -> long[].class;
            case FLOAT32 -> float[].class;
            case FLOAT64 -> double[].class;
            case BOOL -> boolean[].class;
            case STRING -> String[].class;
            case ARRAY -> GgufMetadataValue[].class;
        };
    }

    private static IllegalArgumentException mismatch(String key, String type, Object value) {
        return new IllegalArgumentException("metadata '" + key + "': expected a Java value for " + type + " but found "
                + value.getClass().getSimpleName());
    }
}
