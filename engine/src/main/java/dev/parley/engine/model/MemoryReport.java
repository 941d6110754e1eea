package dev.parley.engine.model;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8KActivations;
import dev.parley.engine.tensor.Tensor;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memory a model needs: weight bytes by tensor type, split into matrices read from the memory-mapped file
 * and matrices quantized to Q8_0 on load (off-heap, keyed by their stored type), small heap vectors, the KV cache
 * of one session and that session's scratch buffers. Every figure is computed from the configuration and the
 * stored tensors, so it is known before anything is allocated.
 *
 * @param mappedWeightBytes    bytes of matrices used straight from the mapping, by type
 * @param quantizedWeightBytes bytes of the Q8_0 copies made on load, by the stored type they were made from
 * @param vectorBytes          norm weights, biases and RoPE factors copied to the heap
 * @param kv                   the KV cache format
 * @param contextLength        positions of the KV cache
 * @param kvBytesPerToken      KV cache bytes per position (all layers, keys and values)
 * @param kvBytes              the whole KV cache
 * @param scratchBytes         the session's buffers (activations, attention scores, logits); not the
 *                             {@code chunk x vocab} logits buffer that {@code InferenceSession.ingestAll} adds
 */
public record MemoryReport(Map<GgmlType, Long> mappedWeightBytes, Map<GgmlType, Long> quantizedWeightBytes,
                           long vectorBytes, KvFormat kv, int contextLength, long kvBytesPerToken, long kvBytes,
                           long scratchBytes) {

    public MemoryReport {
        mappedWeightBytes = Collections.unmodifiableMap(new EnumMap<>(mappedWeightBytes));
        quantizedWeightBytes = Collections.unmodifiableMap(new EnumMap<>(quantizedWeightBytes));
    }

    /**
     * The memory of {@code stored} run with {@code options} (weights, embeddings, KV format), one session of
     * {@code contextLength} positions, prefill chunks of {@code chunk} tokens and {@code threads} attention threads.
     */
    public static MemoryReport estimate(Configuration config, Weights stored, ModelOptions options, int contextLength,
                                        int chunk, int threads) {
        Map<GgmlType, Long> mapped = new EnumMap<>(GgmlType.class);
        Map<GgmlType, Long> quantized = new EnumMap<>(GgmlType.class);
        Set<Tensor> outer = Collections.newSetFromMap(new IdentityHashMap<>());
        outer.add(stored.tokenEmbedding());
        outer.add(stored.output());
        for (Tensor t : stored.distinctMatrices()) {
            if (WeightQuantizer.converts(t, outer.contains(t), options)) {
                quantized.merge(t.type(), GgmlType.Q8_0.byteSizeFor(t.cols()) * t.rows(), Long::sum);
            } else {
                mapped.merge(t.type(), t.byteSize(), Long::sum);
            }
        }
        boolean kQuants = mapped.keySet().stream().anyMatch(t -> t.blockSize() == Q8KActivations.BLOCK);
        return new MemoryReport(mapped, quantized, stored.vectorBytes(), options.kv(), contextLength,
                KvCache.bytesPerToken(config, options.kv()), KvCache.bytesFor(config, contextLength, options.kv()),
                scratchBytes(config, chunk, contextLength, threads, kQuants));
    }

    /**
     * The longest context, at most the model's own, whose {@link #totalBytes()} fits in {@code budget} bytes; 0
     * when not even one position fits.
     */
    public static int longestContext(Configuration config, Weights stored, ModelOptions options, long budget,
                                     int threads) {
        int lo = 0;
        int hi = config.contextLength();
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            MemoryReport r = estimate(config, stored, options, mid, Math.min(LlamaModel.DEFAULT_CHUNK, mid), threads);
            if (r.totalBytes() <= budget) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** {@link #scratchBytes(Configuration, int, int, int, boolean)} for weights without K-quants. */
    public static long scratchBytes(Configuration c, int chunk, int contextLength, int threads) {
        return scratchBytes(c, chunk, contextLength, threads, false);
    }

    /**
     * Bytes of the buffers of one session (mirrors {@code SessionState}, {@link Activations} and, with K-quant
     * weights, the {@link Q8KActivations} that are allocated on their first product).
     */
    public static long scratchBytes(Configuration c, int chunk, int contextLength, int threads, boolean kQuants) {
        long floats = 3L * chunk * c.dim() + 2L * chunk * c.qDim() + 2L * chunk * c.kvDim() + 2L * chunk * c.ffnDim()
                + (long) threads * contextLength + 2L * chunk * (c.ropeDims() / 2) * (c.variant().slidingWindow() > 0 ? 2 : 1) + c.vocabSize();
        long n = (long) chunk * Math.max(c.dim(), Math.max(c.qDim(), c.ffnDim()));
        // rounded floats, int8 quants, quants widened to shorts, quants back as floats, block scales and sums
        long activations = 4 * n + n + 2 * n + 4 * n + 8 * ((n + Activations.BLOCK - 1) / Activations.BLOCK + chunk);
        if (kQuants) {
            // Q8_K: quants, quants widened to shorts, a scale per 256 and a sum per 16 values
            activations += n + 2 * n + 4 * (n / Q8KActivations.BLOCK + chunk) + 4 * (n / Q8KActivations.SUM_GROUP + chunk);
        }
        long rows = 2L * 4 * chunk; // each row's position and the rows whose logits are wanted (ints)
        // blocked attention: per thread its scratch, per step 3 ints per (row, KV head) item
        long attention = threads * BlockAttention.scratchBytes(c.headSize(), Transformer.ATTENTION_TOKENS * c.groupSize())
                + 3L * 4 * chunk * c.kvHeads();
        return 4 * floats + activations + rows + attention;
    }

    /** Mapped plus quantized matrix bytes plus heap vectors. */
    public long weightBytes() {
        return sum(mappedWeightBytes) + sum(quantizedWeightBytes) + vectorBytes;
    }

    /** Bytes of weights from the mapping (resident once touched, shared with the page cache). */
    public long mappedBytes() {
        return sum(mappedWeightBytes);
    }

    /** Bytes of weights quantized on load (off-heap, owned by the model). */
    public long quantizedBytes() {
        return sum(quantizedWeightBytes);
    }

    /** Weights, KV cache and scratch. */
    public long totalBytes() {
        return weightBytes() + kvBytes + scratchBytes;
    }

    /** One line per figure, for people. */
    public List<String> lines() {
        String kvName = "KV cache (" + kv.name().toLowerCase(java.util.Locale.ROOT) + "):";
        return List.of(
                String.format("%-19s %s %s", "weights mapped:", human(mappedBytes()), byType(mappedWeightBytes)),
                quantizedWeightBytes.isEmpty() ? String.format("%-19s none", "weights quantized:")
                        : String.format("%-19s %s Q8_0 made from %s", "weights quantized:", human(quantizedBytes()),
                        byType(quantizedWeightBytes)),
                String.format("%-19s %s", "heap vectors:", human(vectorBytes)),
                String.format("%-19s %s for %d positions, %s per token", kvName, human(kvBytes), contextLength,
                        human(kvBytesPerToken)),
                String.format("%-19s %s", "scratch:", human(scratchBytes)),
                String.format("%-19s %s", "total:", human(totalBytes())));
    }

    /** Bytes in B, KiB, MiB or GiB with two decimals. */
    public static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(java.util.Locale.ROOT, "%.2f %s", v, units[u]);
    }

    private static String byType(Map<GgmlType, Long> m) {
        StringBuilder b = new StringBuilder("(");
        m.forEach((t, n) -> b.append(b.length() > 1 ? ", " : "").append(t).append(' ').append(human(n)));
        return b.append(')').toString();
    }

    private static long sum(Map<GgmlType, Long> m) {
        long s = 0;
        for (long v : m.values()) {
            s += v;
        }
        return s;
    }
}
