package dev.parley.engine.gguf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the header of a GGUF file from a memory segment. Every length and count is checked
 * against what is left of the file before anything is allocated, so a hostile file gets an error,
 * never an out-of-memory or a crash.
 */
record GgufHeader(int version, Map<String, GgufMetadataValue> metadata, List<GgufTensorInfo> tensors,
                  int alignment, long dataOffset) {

    static final int MAGIC = 0x46554747; // "GGUF" little-endian
    static final int MAX_DIMS = 4;
    private static final int MAX_NESTING = 8;

    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static GgufHeader parse(MemorySegment file, String name) throws GgufException {
        return new Parser(file, name).parse();
    }

    private static final class Parser {
        private final MemorySegment seg;
        private final String name;
        private final long size;
        private long pos;

        Parser(MemorySegment seg, String name) {
            this.seg = seg;
            this.name = name;
            this.size = seg.byteSize();
        }

        GgufHeader parse() throws GgufException {
            need(4, "the magic number");
            int magic = seg.get(I32, 0);
            if (magic != MAGIC) {
                throw error("expected the magic 'GGUF' at offset 0 but found " + describeMagic());
            }
            pos = 4;
            int version = u32("the version");
            if (version != 2 && version != 3) {
                throw error("expected GGUF version 2 or 3 but found " + Integer.toUnsignedString(version));
            }
            long tensorCount = u64("the tensor count");
            long kvCount = u64("the metadata count");
            // Each metadata entry takes at least 8 + 4 + 1 bytes, each tensor info at least 8 + 4 + 8 + 4 + 8.
            if (kvCount < 0 || kvCount > (size - pos) / 13) {
                throw error("expected a metadata count that fits in the file (" + size + " bytes) but found "
                        + Long.toUnsignedString(kvCount));
            }
            if (tensorCount < 0 || tensorCount > (size - pos) / 32) {
                throw error("expected a tensor count that fits in the file (" + size + " bytes) but found "
                        + Long.toUnsignedString(tensorCount));
            }
            Map<String, GgufMetadataValue> metadata = new LinkedHashMap<>();
            for (long i = 0; i < kvCount; i++) {
                String key = string("metadata key #" + i);
                int typeId = u32("the type of '" + key + "'");
                GgufValueType type = GgufValueType.byId(typeId);
                if (type == null) {
                    throw error("expected a metadata value type 0-12 for '" + key + "' but found " + Integer.toUnsignedString(typeId));
                }
                GgufMetadataValue value = value(type, key, 0);
                if (metadata.put(key, value) != null) {
                    throw error("expected unique metadata keys but found '" + key + "' twice");
                }
            }
            int alignment = DEFAULT_ALIGNMENT();
            GgufMetadataValue a = metadata.get(GgufFile.ALIGNMENT_KEY);
            if (a != null) {
                // Only integer types: asLong() on a float would throw IllegalStateException, not GgufException.
                boolean integer = a.value() instanceof Byte || a.value() instanceof Short
                        || a.value() instanceof Integer || a.value() instanceof Long;
                long al = integer ? a.asLong() : -1;
                if (al <= 0 || al > 1 << 20 || Long.bitCount(al) != 1) {
                    throw error("expected general.alignment to be a power of two (an integer up to 2^20) but found " + a.describe());
                }
                alignment = (int) al;
            }
            List<GgufTensorInfo> tensors = new ArrayList<>((int) tensorCount);
            Set<String> names = new HashSet<>();
            for (long i = 0; i < tensorCount; i++) {
                GgufTensorInfo t = tensorInfo(i);
                if (!names.add(t.name())) {
                    throw error("expected unique tensor names but found '" + t.name() + "' twice");
                }
                tensors.add(t);
            }
            long dataOffset = align(pos, alignment);
            for (GgufTensorInfo t : tensors) {
                if (t.offset() % alignment != 0) {
                    throw error("expected tensor '" + t.name() + "' to start at a multiple of " + alignment
                            + " but found offset " + t.offset());
                }
                long end = dataOffset + t.offset() + t.byteSize();
                if (t.offset() < 0 || end > size || end < 0) {
                    throw error("tensor '" + t.name() + "' (" + t.type() + ", " + t.byteSize() + " bytes at data offset "
                            + t.offset() + ") ends at byte " + end + " but the file has only " + size
                            + " bytes: the file is truncated or corrupt");
                }
            }
            return new GgufHeader(version, metadata, tensors, alignment, dataOffset);
        }

        private static int DEFAULT_ALIGNMENT() {
            return GgufFile.DEFAULT_ALIGNMENT;
        }

        private GgufTensorInfo tensorInfo(long index) throws GgufException {
            String tname = string("the name of tensor #" + index);
            int nDims = u32("the rank of tensor '" + tname + "'");
            if (nDims < 1 || nDims > MAX_DIMS) {
                throw error("expected tensor '" + tname + "' to have 1 to " + MAX_DIMS + " dimensions but found "
                        + Integer.toUnsignedString(nDims));
            }
            long[] dims = new long[nDims];
            long count = 1;
            for (int d = 0; d < nDims; d++) {
                dims[d] = u64("dimension " + d + " of tensor '" + tname + "'");
                if (dims[d] <= 0 || dims[d] > size * 8) {
                    throw error("expected dimension " + d + " of tensor '" + tname + "' to be between 1 and what the file ("
                            + size + " bytes) can hold but found " + Long.toUnsignedString(dims[d]));
                }
                try {
                    count = Math.multiplyExact(count, dims[d]);
                } catch (ArithmeticException e) {
                    throw error("tensor '" + tname + "' has absurd dimensions: their product overflows");
                }
            }
            int typeId = u32("the type of tensor '" + tname + "'");
            GgmlType type = GgmlType.byId(typeId);
            if (type == null) {
                throw error("tensor '" + tname + "' has unknown ggml type id " + Integer.toUnsignedString(typeId));
            }
            if (!type.supported()) {
                throw error("tensor '" + tname + "' has type " + type + " (id " + typeId
                        + "), which Parley does not support; supported: " + GgmlType.supportedNames());
            }
            if (dims[0] % type.blockSize() != 0) {
                throw error("expected the first dimension of tensor '" + tname + "' to be a multiple of "
                        + type.blockSize() + " for " + type + " but found " + dims[0]);
            }
            if (count > size * 8) {
                throw error("tensor '" + tname + "' has " + count + " elements, more than a " + size + "-byte file can hold");
            }
            long offset = u64("the offset of tensor '" + tname + "'");
            return new GgufTensorInfo(tname, dims, type, offset);
        }

        private GgufMetadataValue value(GgufValueType type, String key, int depth) throws GgufException {
            String what = "the value of '" + key + "'";
            return switch (type) {
                case UINT8, INT8 -> new GgufMetadataValue(type, null, u8(what));
                case UINT16, INT16 -> new GgufMetadataValue(type, null, u16(what));
                case UINT32, INT32 -> new GgufMetadataValue(type, null, u32(what));
                case UINT64, INT64 -> new GgufMetadataValue(type, null, u64(what));
                case FLOAT32 -> { need(4, what); float f = seg.get(F32, pos); pos += 4; yield new GgufMetadataValue(type, null, f); }
                case FLOAT64 -> { need(8, what); double d = seg.get(F64, pos); pos += 8; yield new GgufMetadataValue(type, null, d); }
                case BOOL -> new GgufMetadataValue(type, null, bool(what));
                case STRING -> new GgufMetadataValue(type, null, string(what));
                case ARRAY -> array(key, depth);
            };
        }

        private GgufMetadataValue array(String key, int depth) throws GgufException {
            if (depth >= MAX_NESTING) {
                throw error("metadata '" + key + "' nests arrays deeper than " + MAX_NESTING + " levels");
            }
            int elemId = u32("the element type of '" + key + "'");
            GgufValueType et = GgufValueType.byId(elemId);
            if (et == null) {
                throw error("expected an array element type 0-12 for '" + key + "' but found " + Integer.toUnsignedString(elemId));
            }
            long n = u64("the length of '" + key + "'");
            long minBytes = switch (et) {
                case UINT8, INT8, BOOL -> 1;
                case UINT16, INT16 -> 2;
                case UINT32, INT32, FLOAT32 -> 4;
                case UINT64, INT64, FLOAT64, STRING -> 8;
                case ARRAY -> 12;
            };
            if (n < 0 || n > Integer.MAX_VALUE - 8 || n > (size - pos) / minBytes) {
                throw error("array '" + key + "' claims " + Long.toUnsignedString(n) + " elements of " + et
                        + " but only " + (size - pos) + " bytes are left in the file");
            }
            int len = (int) n;
            String what = "an element of '" + key + "'";
            Object arr = switch (et) {
                case UINT8, INT8 -> { byte[] a = new byte[len]; for (int i = 0; i < len; i++) a[i] = u8(what); yield a; }
                case BOOL -> { boolean[] a = new boolean[len]; for (int i = 0; i < len; i++) a[i] = bool(what); yield a; }
                case UINT16, INT16 -> { short[] a = new short[len]; for (int i = 0; i < len; i++) a[i] = u16(what); yield a; }
                case UINT32, INT32 -> { int[] a = new int[len]; for (int i = 0; i < len; i++) a[i] = u32(what); yield a; }
                case UINT64, INT64 -> { long[] a = new long[len]; for (int i = 0; i < len; i++) a[i] = u64(what); yield a; }
                case FLOAT32 -> {
                    float[] a = new float[len];
                    for (int i = 0; i < len; i++) { a[i] = seg.get(F32, pos); pos += 4; }
                    yield a;
                }
                case FLOAT64 -> {
                    double[] a = new double[len];
                    for (int i = 0; i < len; i++) { a[i] = seg.get(F64, pos); pos += 8; }
                    yield a;
                }
                case STRING -> { String[] a = new String[len]; for (int i = 0; i < len; i++) a[i] = string(what); yield a; }
                case ARRAY -> {
                    GgufMetadataValue[] a = new GgufMetadataValue[len];
                    for (int i = 0; i < len; i++) a[i] = array(key + "[" + i + "]", depth + 1);
                    yield a;
                }
            };
            return new GgufMetadataValue(GgufValueType.ARRAY, et, arr);
        }

        private String string(String what) throws GgufException {
            long len = u64("the length of " + what);
            if (len < 0 || len > size - pos) {
                throw error("expected " + what + " to fit in the file but its length is "
                        + Long.toUnsignedString(len) + " with " + (size - pos) + " bytes left");
            }
            byte[] bytes = seg.asSlice(pos, len).toArray(ValueLayout.JAVA_BYTE);
            pos += len;
            try {
                return StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE)
                        .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                throw error("expected UTF-8 in " + what);
            }
        }

        private byte u8(String what) throws GgufException {
            need(1, what);
            return seg.get(ValueLayout.JAVA_BYTE, pos++);
        }

        private boolean bool(String what) throws GgufException {
            byte b = u8(what);
            if (b != 0 && b != 1) {
                throw error("expected a bool (0 or 1) for " + what + " but found " + b);
            }
            return b == 1;
        }

        private short u16(String what) throws GgufException {
            need(2, what);
            short v = seg.get(I16, pos);
            pos += 2;
            return v;
        }

        private int u32(String what) throws GgufException {
            need(4, what);
            int v = seg.get(I32, pos);
            pos += 4;
            return v;
        }

        private long u64(String what) throws GgufException {
            need(8, what);
            long v = seg.get(I64, pos);
            pos += 8;
            return v;
        }

        private void need(long n, String what) throws GgufException {
            if (pos + n > size) {
                throw error("expected " + what + " at byte " + pos + " but the file ends at byte " + size
                        + ": it is truncated");
            }
        }

        private String describeMagic() {
            int n = (int) Math.min(4, size);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append(String.format("%02x ", seg.get(ValueLayout.JAVA_BYTE, i)));
            }
            return n == 0 ? "an empty file" : "bytes " + sb.toString().trim();
        }

        private GgufException error(String message) {
            return new GgufException(name + ": " + message);
        }
    }

    static long align(long offset, int alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }
}
