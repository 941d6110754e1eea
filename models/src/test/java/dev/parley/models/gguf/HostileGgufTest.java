package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufException;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.gguf.GgufValueType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken and malicious GGUF files against the engine's reader ({@link GgufFile#open}): each must
 * fail with a {@link GgufException} whose message says what is wrong, never with another
 * exception, a crash, or an allocation sized by a number read from the file.
 */
class HostileGgufTest {

    @TempDir
    Path dir;

    private byte[] valid;
    private long dataEnd;
    private int fileCount;

    @BeforeEach
    void writeAValidFile() throws IOException {
        GgufWriter w = new GgufWriter();
        w.put("general.architecture", GgufMetadataValue.of("llama"));
        w.put("llama.block_count", GgufMetadataValue.ofUint32(1));
        w.put("tokenizer.ggml.tokens", GgufMetadataValue.ofStrings(new String[] {"a", "b", "ü"}));
        w.put("x.nested", new GgufMetadataValue(GgufValueType.ARRAY, GgufValueType.ARRAY,
                new GgufMetadataValue[] {GgufMetadataValue.ofFloats(new float[] {1f, 2f})}));
        w.addTensor("w", new long[] {32, 2}, GgmlType.Q8_0);
        w.addTensor("n", new long[] {5}, GgmlType.F32);
        Path p = dir.resolve("valid.gguf");
        try (GgufTensorSink s = w.open(p)) {
            s.write("w", TensorEncoder.encode(GgmlType.Q8_0, GgufWriterTest.ramp(64, 0.1f)), 0, 68);
            s.write("n", TensorEncoder.encode(GgmlType.F32, new float[] {1, 1, 1, 1, 1}), 0, 20);
            s.commit();
        }
        valid = Files.readAllBytes(p);
        try (GgufFile f = GgufFile.open(p)) {
            for (GgufTensorInfo t : f.tensors()) {
                dataEnd = Math.max(dataEnd, f.dataOffset() + t.offset() + t.byteSize());
            }
        }
        assertTrue(dataEnd < valid.length, "the valid file ends with alignment padding");
    }

    @Test
    void everyTruncationIsRefusedWithAMessage() throws IOException {
        for (int len = 0; len < valid.length; len++) {
            Path p = file(Arrays.copyOf(valid, len));
            if (len >= dataEnd) {
                try (GgufFile f = GgufFile.open(p)) { // only trailing padding is missing: still complete
                    assertEquals(2, f.tensors().size());
                }
                continue;
            }
            int n = len;
            GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close(), "prefix of " + n + " bytes");
            assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("fit in the file")
                    || e.getMessage().contains("fits in the file")
                    || e.getMessage().contains("bytes are left") || e.getMessage().contains("file can hold")
                    || e.getMessage().contains("between 1 and what the file"),
                    "prefix of " + n + " bytes: " + e.getMessage());
            Files.delete(p);
        }
    }

    /** Seeded random byte corruption of the header: the reader either accepts the file or says why not. */
    @Test
    void randomHeaderCorruptionOnlyEverGivesGgufExceptions() throws IOException {
        java.util.Random r = new java.util.Random(2024);
        int headerEnd = (int) (dataEnd - 88); // the data section holds 68 + 20 bytes (with padding between)
        int accepted = 0;
        for (int i = 0; i < 1500; i++) {
            byte[] b = valid.clone();
            int flips = 1 + r.nextInt(3);
            for (int k = 0; k < flips; k++) {
                int at = r.nextInt(Math.max(1, headerEnd));
                b[at] = switch (r.nextInt(4)) {
                    case 0 -> (byte) r.nextInt(256);
                    case 1 -> (byte) 0xFF;
                    case 2 -> 0;
                    default -> (byte) (b[at] ^ (1 << r.nextInt(8)));
                };
            }
            Path p = file(b);
            try (GgufFile f = GgufFile.open(p)) {
                accepted++;
                for (GgufTensorInfo t : f.tensors()) {
                    assertTrue(f.tensorData(t).byteSize() == t.byteSize()); // slices stay inside the mapping
                }
            } catch (GgufException e) {
                assertTrue(e.getMessage().startsWith(p.getFileName() + ": "), e.getMessage());
            } catch (RuntimeException | IOException e) {
                throw new AssertionError("mutation " + i + " made the reader fail with " + e, e);
            }
            Files.delete(p);
        }
        assertTrue(accepted < 1500, "most corruptions are detected");
    }

    @Test
    void wrongMagic() {
        byte[] b = valid.clone();
        b[3] = 'L'; // "GGUL"
        assertMessage(b, "expected the magic 'GGUF' at offset 0 but found bytes 47 47 55 4c");
        assertMessage(new byte[0], "expected the magic number at byte 0 but the file ends at byte 0: it is truncated");
    }

    @Test
    void wrongVersion() {
        for (int v : new int[] {0, 1, 4, 0x03000000}) {
            LeBuffer h = new LeBuffer();
            h.u32(0x46554747);
            h.u32(v);
            h.u64(0);
            h.u64(0);
            assertMessage(bytes(h), "expected GGUF version 2 or 3 but found " + Integer.toUnsignedString(v));
        }
    }

    @Test
    void tensorDataPastTheEndOfTheFile() {
        LeBuffer h = header(1, 0);
        tensor(h, "big", new long[] {64, 2}, GgmlType.F32.id(), 0);
        h.zeros(64);
        assertMessage(bytes(h), "tensor 'big' (F32, 512 bytes at data offset 0) ends at byte");
        LeBuffer h1 = header(1, 0);
        tensor(h1, "huge", new long[] {1024, 1024}, GgmlType.F32.id(), 0);
        h1.zeros(64);
        assertMessage(bytes(h1), "tensor 'huge' has 1048576 elements, more than a ");
        LeBuffer h2 = header(1, 0);
        tensor(h2, "far", new long[] {8}, GgmlType.F32.id(), 1L << 40);
        h2.zeros(64);
        assertMessage(bytes(h2), "the file is truncated or corrupt");
        LeBuffer h3 = header(1, 0);
        tensor(h3, "neg", new long[] {8}, GgmlType.F32.id(), -64);
        h3.zeros(64);
        assertMessage(bytes(h3), "tensor 'neg'");
        LeBuffer h4 = header(1, 0);
        tensor(h4, "odd", new long[] {8}, GgmlType.F32.id(), 4);
        h4.zeros(64);
        assertMessage(bytes(h4), "expected tensor 'odd' to start at a multiple of 32 but found offset 4");
    }

    @Test
    void unknownAndUnsupportedTensorTypes() throws IOException {
        LeBuffer h = header(1, 0);
        tensor(h, "mystery", new long[] {32}, 99, 0);
        h.zeros(256);
        assertMessage(bytes(h), "tensor 'mystery' has unknown ggml type id 99");

        GgufWriter w = new GgufWriter();
        w.addTensor("blk.0.ffn_down.weight", new long[] {256, 2}, GgmlType.Q3_K);
        Path p = dir.resolve("q3k.gguf");
        try (GgufTensorSink s = w.open(p)) {
            s.write("blk.0.ffn_down.weight", new byte[2 * 110], 0, 2 * 110);
            s.commit();
        }
        GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close());
        assertTrue(e.getMessage().contains("'blk.0.ffn_down.weight' has type Q3_K"), e.getMessage());
        assertTrue(e.getMessage().contains("Q4_K, Q5_K, Q6_K"), e.getMessage());
        assertTrue(e.getMessage().contains("not support"), e.getMessage());
    }

    @Test
    void absurdDimensions() {
        LeBuffer h = header(1, 0);
        tensor(h, "huge", new long[] {1L << 40, 1}, GgmlType.F32.id(), 0);
        h.zeros(64);
        assertMessage(bytes(h), "expected dimension 0 of tensor 'huge' to be between 1 and what the file");
        LeBuffer h2 = header(1, 0);
        tensor(h2, "product", new long[] {8192, 8192, 8192, 8192}, GgmlType.F32.id(), 0);
        h2.zeros(2048);
        assertMessage(bytes(h2), "tensor 'product'");
        LeBuffer h3 = header(1, 0);
        tensor(h3, "zero", new long[] {0}, GgmlType.F32.id(), 0);
        h3.zeros(64);
        assertMessage(bytes(h3), "expected dimension 0 of tensor 'zero' to be between 1");
        LeBuffer h4 = header(1, 0);
        tensor(h4, "rank5", new long[] {1, 1, 1, 1, 1}, GgmlType.F32.id(), 0);
        h4.zeros(64);
        assertMessage(bytes(h4), "expected tensor 'rank5' to have 1 to 4 dimensions but found 5");
        LeBuffer h5 = header(1, 0);
        tensor(h5, "ragged", new long[] {33}, GgmlType.Q8_0.id(), 0);
        h5.zeros(64);
        assertMessage(bytes(h5), "multiple of 32 for Q8_0 but found 33");
    }

    @Test
    void absurdCountsAndLengths() {
        assertMessage(bytes(header(0, 1L << 60)), "expected a metadata count that fits in the file");
        assertMessage(bytes(header(-1, 0)), "expected a tensor count that fits in the file");

        LeBuffer s = header(0, 1);
        s.u64(Long.MAX_VALUE); // key length
        s.zeros(64);
        assertMessage(bytes(s), "its length is 9223372036854775807");

        LeBuffer s2 = header(0, 1);
        s2.string("k");
        s2.u32(GgufValueType.STRING.id());
        s2.u64(-1L); // 2^64 - 1 bytes
        s2.zeros(64);
        assertMessage(bytes(s2), "its length is 18446744073709551615");

        LeBuffer a = header(0, 1);
        a.string("tokenizer.ggml.tokens");
        a.u32(GgufValueType.ARRAY.id());
        a.u32(GgufValueType.STRING.id());
        a.u64(1_000_000_000L);
        a.zeros(64);
        assertMessage(bytes(a), "array 'tokenizer.ggml.tokens' claims 1000000000 elements of STRING");

        LeBuffer a2 = header(0, 1);
        a2.string("k");
        a2.u32(GgufValueType.ARRAY.id());
        a2.u32(GgufValueType.UINT8.id());
        a2.u64(1L << 62);
        a2.zeros(64);
        assertMessage(bytes(a2), "claims 4611686018427387904 elements of UINT8");
    }

    @Test
    void arraysNestedTooDeep() {
        LeBuffer h = header(0, 1);
        h.string("deep");
        h.u32(GgufValueType.ARRAY.id());
        for (int i = 0; i < 1000; i++) {
            h.u32(GgufValueType.ARRAY.id());
            h.u64(1);
        }
        h.u32(GgufValueType.UINT8.id());
        h.u64(0);
        h.zeros(64);
        assertMessage(bytes(h), "nests arrays deeper than 8 levels");
    }

    @Test
    void badValuesAndTypes() {
        LeBuffer t = header(0, 1);
        t.string("k");
        t.u32(13);
        t.zeros(16);
        assertMessage(bytes(t), "expected a metadata value type 0-12 for 'k' but found 13");

        LeBuffer e = header(0, 1);
        e.string("k");
        e.u32(GgufValueType.ARRAY.id());
        e.u32(77);
        e.u64(0);
        assertMessage(bytes(e), "expected an array element type 0-12 for 'k' but found 77");

        LeBuffer b = header(0, 1);
        b.string("flag");
        b.u32(GgufValueType.BOOL.id());
        b.u8(2);
        b.zeros(16);
        assertMessage(bytes(b), "expected a bool (0 or 1)");

        LeBuffer d = header(0, 2);
        for (int i = 0; i < 2; i++) {
            d.string("twice");
            d.u32(GgufValueType.UINT8.id());
            d.u8(1);
        }
        d.zeros(16);
        assertMessage(bytes(d), "expected unique metadata keys but found 'twice' twice");

        LeBuffer dt = header(2, 0);
        tensor(dt, "same", new long[] {8}, GgmlType.F32.id(), 0);
        tensor(dt, "same", new long[] {8}, GgmlType.F32.id(), 32);
        dt.zeros(128);
        assertMessage(bytes(dt), "expected unique tensor names but found 'same' twice");
    }

    @Test
    void badAlignments() {
        for (GgufMetadataValue v : new GgufMetadataValue[] {
                GgufMetadataValue.ofUint32(0), GgufMetadataValue.ofUint32(48), GgufMetadataValue.ofUint32(-1),
                GgufMetadataValue.ofFloat32(32f), GgufMetadataValue.of("32"),
                new GgufMetadataValue(GgufValueType.FLOAT64, null, 32.0)}) {
            LeBuffer h = header(0, 1);
            h.string("general.alignment");
            h.u32(v.type().id());
            GgufMetadataEncoder.write(h, v);
            h.zeros(64);
            assertMessage(bytes(h), "expected general.alignment to be a power of two");
        }
    }

    private LeBuffer header(long tensors, long kvs) {
        LeBuffer h = new LeBuffer();
        h.u32(0x46554747);
        h.u32(3);
        h.u64(tensors);
        h.u64(kvs);
        return h;
    }

    private static void tensor(LeBuffer h, String name, long[] dims, int typeId, long offset) {
        h.string(name);
        h.u32(dims.length);
        for (long d : dims) {
            h.u64(d);
        }
        h.u32(typeId);
        h.u64(offset);
    }

    private static byte[] bytes(LeBuffer b) {
        return Arrays.copyOf(b.array(), b.size());
    }

    private Path file(byte[] content) throws IOException {
        Path p = dir.resolve("hostile-" + (fileCount++) + ".gguf");
        Files.write(p, content);
        return p;
    }

    private void assertMessage(byte[] content, String expected) {
        Path p;
        try {
            p = file(content);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        GgufException e = assertThrows(GgufException.class, () -> GgufFile.open(p).close(), expected);
        assertTrue(e.getMessage().contains(expected), "expected a message containing \"" + expected + "\" but found: " + e.getMessage());
        assertTrue(e.getMessage().startsWith(p.getFileName().toString()), "the message names the file: " + e.getMessage());
    }
}
