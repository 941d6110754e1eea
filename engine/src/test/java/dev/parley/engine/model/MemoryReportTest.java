package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.SharedFixtures;
import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufTensorInfo;
import java.lang.reflect.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The memory report against what is really allocated: the arena's quantized segments, the file's tensor sizes,
 * the KV cache's arrays and, found by reflection, every array of a session's scratch buffers.
 */
class MemoryReportTest {

    private static final int CTX = 300;

    @ParameterizedTest
    @EnumSource(KvFormat.class)
    void figuresMatchTheRealAllocations(KvFormat kv) throws Exception {
        Path p = SharedFixtures.require("parity/m2-llama-spm-f16.gguf");
        ModelOptions options = new ModelOptions(BackendKind.VECTOR, 3).withWeights(WeightFormat.INT8).withKv(kv);
        try (LlamaModel m = LlamaModel.load(p, options)) {
            MemoryReport r = m.memoryReport(CTX, kv);
            assertEquals(m.quantizedBytes(), r.quantizedBytes(), "quantized bytes");
            assertEquals(Long.valueOf(m.quantizedBytes()), r.quantizedWeightBytes().get(GgmlType.F16),
                    "all quantized bytes come from F16 tensors");
            long fileMatrices = 0;
            for (GgufTensorInfo t : m.gguf().tensors()) {
                if (t.dims().length == 2 && t.type() == GgmlType.Q8_0) {
                    fileMatrices += t.type().byteSizeFor(t.dims()[0] * t.dims()[1]);
                }
            }
            assertEquals(fileMatrices, r.mappedBytes(), "the Q8_0 embeddings and output stay mapped");
            try (InferenceSession s = m.newSession(CTX)) {
                assertEquals(r.kvBytes(), s.cache().bytes(), "KV cache arrays");
                assertEquals(KvCache.bytesFor(m.config(), CTX, kv), r.kvBytes());
                assertEquals(r.kvBytesPerToken() * CTX, r.kvBytes());
                long scratch = arrayBytes(stateOf(s), java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
                assertEquals(scratch, r.scratchBytes(), "session scratch arrays");
            }
        }
    }

    /** A K-quant model's sessions also hold the Q8_K buffers, allocated on the first product. */
    @Test
    void kQuantScratchIncludesTheQ8KBuffers() throws Exception {
        Path p = SharedFixtures.require("parity/m6-qwen3-qwen2-q4_k_m.gguf");
        try (LlamaModel m = LlamaModel.load(p, new ModelOptions(BackendKind.VECTOR, 3))) {
            MemoryReport r = m.memoryReport(CTX, KvFormat.F32);
            try (InferenceSession s = m.newSession(CTX)) {
                s.ingest(new int[] {1, 2, 3});
                long scratch = arrayBytes(stateOf(s), java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
                assertEquals(scratch, r.scratchBytes(), "session scratch arrays after a product");
            }
        }
    }

    @Test
    void int8KvIsAboutAQuarterOfF32AndTheLongestContextFitsTheBudget() throws Exception {
        Path p = SharedFixtures.require("parity/m1-llama-spm-q8_0.gguf");
        try (LlamaModel m = LlamaModel.load(p, new ModelOptions(BackendKind.VECTOR, 2))) {
            Configuration c = m.config();
            double ratio = (double) KvCache.bytesPerToken(c, KvFormat.INT8) / KvCache.bytesPerToken(c, KvFormat.F32);
            assertEquals((c.headSize() + 4.0) / (4.0 * c.headSize()), ratio, 1e-12);
            Weights w = m.weights();
            ModelOptions o = m.options().withKv(KvFormat.INT8);
            MemoryReport at100 = MemoryReport.estimate(c, w, o, 100, 64, 2);
            int longest = MemoryReport.longestContext(c, w, o, at100.totalBytes(), 2);
            assertEquals(100, longest, "the budget of exactly 100 positions");
            assertEquals(99, MemoryReport.longestContext(c, w, o, at100.totalBytes() - 1, 2));
            assertEquals(0, MemoryReport.longestContext(c, w, o, at100.weightBytes(), 2));
            assertEquals(c.contextLength(), MemoryReport.longestContext(c, w, o, Long.MAX_VALUE, 2));
            assertTrue(MemoryReport.longestContext(c, w, m.options(), at100.totalBytes(), 2) < 100,
                    "an F32 cache fits fewer positions");
        }
    }

    private static Object stateOf(InferenceSession s) throws ReflectiveOperationException {
        Field r = InferenceSession.class.getDeclaredField("runner");
        r.setAccessible(true);
        Field f = CpuSequence.class.getDeclaredField("state");
        f.setAccessible(true);
        return f.get(r.get(s));
    }

    /**
     * Bytes of every primitive array reachable through the fields of {@code o} (and of nested non-array
     * objects), each array counted once however many fields refer to it ({@code seen}, by identity).
     */
    private static long arrayBytes(Object o, java.util.Set<Object> seen) throws IllegalAccessException {
        long sum = 0;
        for (Field f : o.getClass().getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()
                    || f.getType().isEnum()) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(o);
            if (v == null) {
                continue;
            }
            if (v.getClass().isArray()) {
                sum += arrayOf(v, seen);
            } else if (v.getClass().getPackageName().startsWith("dev.parley") && seen.add(v)) {
                sum += arrayBytes(v, seen);
            }
        }
        return sum;
    }

    private static long arrayOf(Object a, java.util.Set<Object> seen) {
        if (!seen.add(a)) {
            return 0;
        }
        Class<?> c = a.getClass().getComponentType();
        if (!c.isPrimitive()) {
            long sum = 0;
            for (Object e : (Object[]) a) {
                if (e == null || e instanceof KvCache) {
                    continue;       // KV caches referred to per row are not scratch
                }
                try {
                    // arrays of arrays, and arrays of scratch objects (one per thread)
                    sum += e.getClass().isArray() ? arrayOf(e, seen) : seen.add(e) ? arrayBytes(e, seen) : 0;
                } catch (IllegalAccessException ex) {
                    throw new IllegalStateException(ex);
                }
            }
            return sum;
        }
        int n = java.lang.reflect.Array.getLength(a);
        int size = c == byte.class || c == boolean.class ? 1 : c == short.class || c == char.class ? 2
                : c == long.class || c == double.class ? 8 : 4;
        return (long) n * size;
    }
}
