package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.gguf.GgufValueType;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GgufWriterTest {

    @TempDir
    Path dir;

    /** One value of every GGUF type, arrays of every element type, nested arrays, unicode. */
    static Map<String, GgufMetadataValue> everyType() {
        Map<String, GgufMetadataValue> m = new LinkedHashMap<>();
        m.put("t.u8", new GgufMetadataValue(GgufValueType.UINT8, null, (byte) 0xFE));
        m.put("t.i8", new GgufMetadataValue(GgufValueType.INT8, null, (byte) -7));
        m.put("t.u16", new GgufMetadataValue(GgufValueType.UINT16, null, (short) 0xFFFE));
        m.put("t.i16", new GgufMetadataValue(GgufValueType.INT16, null, (short) -300));
        m.put("t.u32", GgufMetadataValue.ofUint32(0xFFFF_FFF0));
        m.put("t.i32", GgufMetadataValue.ofInt32(-123456));
        m.put("t.u64", GgufMetadataValue.ofUint64(0xFFFF_FFFF_FFFF_FFF0L));
        m.put("t.i64", new GgufMetadataValue(GgufValueType.INT64, null, Long.MIN_VALUE + 5));
        m.put("t.f32", GgufMetadataValue.ofFloat32(-1.5e-6f));
        m.put("t.f32nan", GgufMetadataValue.ofFloat32(Float.NaN));
        m.put("t.f64", new GgufMetadataValue(GgufValueType.FLOAT64, null, Math.PI));
        m.put("t.bool", GgufMetadataValue.ofBool(true));
        m.put("t.boolf", GgufMetadataValue.ofBool(false));
        m.put("t.str", GgufMetadataValue.of("héllo wörld ✓ 日本語 🦙 \u0000 end"));
        m.put("t.empty", GgufMetadataValue.of(""));
        m.put("a.u8", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.UINT8, new byte[] {0, 1, (byte) 255}));
        m.put("a.i8", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.INT8, new byte[] {-128, 127}));
        m.put("a.u16", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.UINT16, new short[] {1, (short) 65535}));
        m.put("a.i16", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.INT16, new short[] {-1, 2}));
        m.put("a.u32", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.UINT32, new int[] {-1, 7}));
        m.put("a.i32", GgufMetadataValue.ofInt32s(new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE}));
        m.put("a.u64", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.UINT64, new long[] {-1L, 3L}));
        m.put("a.i64", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.INT64, new long[] {Long.MIN_VALUE}));
        m.put("a.f32", GgufMetadataValue.ofFloats(new float[] {1f, -0f, Float.POSITIVE_INFINITY, 3.25e-30f}));
        m.put("a.f64", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.FLOAT64, new double[] {1e300, -2.5}));
        m.put("a.bool", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.BOOL, new boolean[] {true, false, true}));
        m.put("a.str", GgufMetadataValue.ofStrings(new String[] {"", "Ġthe", "<|im_start|>", "ü✓🦙"}));
        m.put("a.empty", GgufMetadataValue.ofFloats(new float[0]));
        GgufMetadataValue inner1 = GgufMetadataValue.ofInt32s(new int[] {1, 2, 3});
        GgufMetadataValue inner2 = GgufMetadataValue.ofStrings(new String[] {"x", "ÿ"});
        GgufMetadataValue innerNested = new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.ARRAY,
                new GgufMetadataValue[] {GgufMetadataValue.ofFloats(new float[] {0.5f})});
        m.put("a.nested", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.ARRAY,
                new GgufMetadataValue[] {inner1, inner2, innerNested}));
        m.put("ключ.ユニコード", GgufMetadataValue.of("unicode key"));
        return m;
    }

    static Stream<Arguments> versionsAndAlignments() {
        return Stream.of(Arguments.of(3, 32), Arguments.of(3, 64), Arguments.of(2, 32), Arguments.of(2, 64));
    }

    @ParameterizedTest
    @MethodSource("versionsAndAlignments")
    void metadataAndTensorsRoundTripThroughTheEngineReader(int version, int alignment) throws IOException {
        GgufWriter w = new GgufWriter(version);
        if (alignment != 32) {
            w.alignment(alignment);
        }
        Map<String, GgufMetadataValue> meta = everyType();
        w.putAll(meta);
        float[] a = ramp(96, 0.25f);
        float[] b = ramp(64, -0.5f);
        byte[] c = TensorEncoder.encode(GgmlType.Q8_0, ramp(64, 0.01f));
        w.addTensor("a", new long[] {32, 3}, GgmlType.F32);
        w.addTensor("odd", new long[] {3}, GgmlType.F16); // 6 bytes: forces padding
        w.addTensor("b", new long[] {64}, GgmlType.F32);
        w.addTensor("c", new long[] {32, 2}, GgmlType.Q8_0);
        Path out = dir.resolve("rt.gguf");
        try (GgufTensorSink sink = w.open(out)) {
            byte[] ab = TensorEncoder.encode(GgmlType.F32, a);
            sink.write("a", ab, 0, 100); // in two chunks
            sink.write("a", ab, 100, ab.length - 100);
            sink.write("odd", TensorEncoder.encode(GgmlType.F16, new float[] {1f, 2f, 3f}), 0, 6);
            sink.write("b", TensorEncoder.encode(GgmlType.F32, b), 0, 256);
            sink.write("c", c, 0, c.length);
            sink.commit();
        }
        assertEquals(0, Files.size(out) % alignment, "file size is padded to the alignment");
        try (GgufFile f = GgufFile.open(out)) {
            assertEquals(version, f.version());
            assertEquals(alignment, f.alignment());
            assertEquals(0, f.dataOffset() % alignment);
            Map<String, GgufMetadataValue> read = new LinkedHashMap<>(f.metadata());
            if (alignment != 32) {
                assertEquals(GgufMetadataValue.ofUint32(alignment), read.remove("general.alignment"));
            }
            assertEquals(List.copyOf(meta.keySet()), List.copyOf(read.keySet()), "key order is kept");
            for (String k : meta.keySet()) {
                assertEquals(meta.get(k), read.get(k), k);
            }
            assertEquals(w.tensors(), f.tensors());
            for (GgufTensorInfo t : f.tensors()) {
                assertEquals(0, t.offset() % alignment, t.name());
            }
            assertArrayEquals(a, TensorEncoder.decode(GgmlType.F32, f.tensorData(f.tensor("a")), 96));
            assertArrayEquals(new float[] {1f, 2f, 3f}, TensorEncoder.decode(GgmlType.F16, f.tensorData(f.tensor("odd")), 3));
            assertArrayEquals(b, TensorEncoder.decode(GgmlType.F32, f.tensorData(f.tensor("b")), 64));
            assertArrayEquals(c, f.tensorData(f.tensor("c")).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void rewritingAReadFileReproducesItByteForByte() throws IOException {
        Path src = dir.resolve("src.gguf");
        GgufWriter w = new GgufWriter();
        w.putAll(everyType());
        w.addTensor("x", new long[] {32, 2}, GgmlType.Q4_0);
        try (GgufTensorSink sink = w.open(src)) {
            sink.write("x", TensorEncoder.encode(GgmlType.Q4_0, ramp(64, 0.3f)), 0, 36);
            sink.commit();
        }
        Path copy = dir.resolve("copy.gguf");
        try (GgufFile f = GgufFile.open(src)) {
            GgufWriter w2 = new GgufWriter(f.version());
            w2.putAll(f.metadata());
            for (GgufTensorInfo t : f.tensors()) {
                w2.addTensor(t.name(), t.dims(), t.type());
            }
            try (GgufTensorSink sink = w2.open(copy)) {
                for (GgufTensorInfo t : f.tensors()) {
                    sink.write(t.name(), f.tensorData(t));
                }
                sink.commit();
            }
        }
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(copy));
    }

    /** Files written by llama.cpp's tools (a vocabulary, a model) come back byte for byte. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"tokenizer/ggml-vocab-gpt-2.gguf", "parity/m3-llama-gpt2-tied-q8_0.gguf"})
    void rewritingALlamaCppFileReproducesItByteForByte(String fixture) throws IOException {
        Path src = dev.parley.engine.SharedFixtures.require(fixture);
        Path copy = dir.resolve("copy.gguf");
        try (GgufFile f = GgufFile.open(src)) {
            GgufWriter w = new GgufWriter(f.version());
            w.putAll(f.metadata());
            for (GgufTensorInfo t : f.tensors()) {
                w.addTensor(t.name(), t.dims(), t.type());
            }
            try (GgufTensorSink sink = w.open(copy)) {
                for (GgufTensorInfo t : f.tensors()) {
                    sink.write(t.name(), f.tensorData(t));
                }
                sink.commit();
            }
        }
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(copy));
    }

    @Test
    void anUncommittedFileLeavesNothingBehind() throws IOException {
        GgufWriter w = new GgufWriter();
        w.addTensor("x", new long[] {4}, GgmlType.F32);
        Path out = dir.resolve("never.gguf");
        Path temp;
        try (GgufTensorSink sink = w.open(out)) {
            temp = sink.tempFile();
            assertTrue(Files.exists(temp));
            sink.write("x", new byte[8], 0, 8);
            IllegalStateException e = assertThrows(IllegalStateException.class, sink::commit);
            assertTrue(e.getMessage().contains("'x' has 8 of 16 bytes"), e.getMessage());
        }
        assertFalse(Files.exists(temp));
        assertFalse(Files.exists(out));
    }

    @Test
    void misuseIsRefusedWithClearMessages() throws IOException {
        GgufWriter w = new GgufWriter();
        IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
                () -> w.put("k", new GgufMetadataValue(GgufValueType.UINT32, null, 5L)));
        assertTrue(e1.getMessage().contains("expected a Java value for UINT32 but found Long"), e1.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.alignment(48));
        assertThrows(IllegalArgumentException.class, () -> new GgufWriter(1));
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> w.addTensor("q", new long[] {33}, GgmlType.Q8_0));
        assertTrue(e2.getMessage().contains("multiple of 32"), e2.getMessage());
        w.addTensor("t1", new long[] {8}, GgmlType.F32);
        w.addTensor("t2", new long[] {8}, GgmlType.F32);
        assertThrows(IllegalArgumentException.class, () -> w.addTensor("t1", new long[] {8}, GgmlType.F32));
        assertThrows(IllegalStateException.class, () -> w.alignment(64));
        try (GgufTensorSink sink = w.open(dir.resolve("m.gguf"))) {
            IllegalStateException e3 = assertThrows(IllegalStateException.class, () -> sink.write("t2", new byte[32], 0, 32));
            assertTrue(e3.getMessage().contains("expected data for tensor 't1'"), e3.getMessage());
            assertThrows(IllegalArgumentException.class, () -> sink.write("t1", new byte[33], 0, 33));
        }
    }

    static float[] ramp(int n, float step) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i - n / 2) * step;
        }
        return x;
    }
}
