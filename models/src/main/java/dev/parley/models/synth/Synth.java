package dev.parley.models.synth;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.models.gguf.GgufTensorSink;
import dev.parley.models.gguf.GgufWriter;
import dev.parley.models.gguf.TensorEncoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/**
 * Generates a GGUF model with the tensors, metadata and tokenizer of a real llama / qwen2 model
 * but random weights (seeded, deterministic): a demo and test model that any GGUF runtime loads.
 * Files are marked {@code general.name = "parley-synth <shape> (random weights)"} and
 * {@code parley.synth = true}.
 *
 * <p>Weights are approximately normal with standard deviation {@code 1/sqrt(fan_in)}, norms
 * around 1 and small biases, so activations and logits stay finite and varied. Tensors are
 * generated and encoded in chunks on several threads and streamed to disk in order, so memory use
 * stays bounded whatever the model size; chunking depends only on the shape, so the bytes do not
 * depend on the thread count.
 */
public final class Synth {

    private static final int CHUNK_ELEMENTS = 1 << 20;

    private final int threads;

    /** A generator using every available processor. */
    public Synth() {
        this(Runtime.getRuntime().availableProcessors());
    }

    public Synth(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        this.threads = threads;
    }

    /** What was written. */
    public record Result(Path path, long bytes, int vocabSize, int tensorCount, long parameterCount) {
    }

    /** Generates {@code spec} into {@code out} with every available processor. */
    public static Result generate(SynthSpec spec, Path out) throws IOException {
        return new Synth().write(spec, out);
    }

    /** Generates {@code spec} into {@code out} (written to a temporary file, then renamed). */
    public Result write(SynthSpec spec, Path out) throws IOException {
        Map<String, GgufMetadataValue> tokenizer;
        int vocab;
        if (spec.vocab() != null) {
            tokenizer = tokenizerKeys(spec.vocab());
            GgufMetadataValue tokens = tokenizer.get("tokenizer.ggml.tokens");
            if (tokens == null || !(tokens.value() instanceof String[] arr)) {
                throw new IOException(spec.vocab().getFileName() + ": expected a tokenizer.ggml.tokens string array in the vocabulary file but found "
                        + (tokens == null ? "none" : tokens.describe()));
            }
            vocab = arr.length;
        } else {
            SynthVocab v = SynthVocab.build(spec.shape().vocab());
            tokenizer = v.metadata();
            vocab = v.size();
        }
        ModelShape shape = spec.shape().withVocab(vocab);
        checkShape(spec.arch(), shape, spec.type());

        GgufWriter w = new GgufWriter();
        w.putAll(SynthLayout.metadata(spec.arch(), shape, spec.type(), vocab, spec.seed()));
        w.put("general.file_type", GgufMetadataValue.ofUint32(spec.mix().fileType()));
        w.putAll(tokenizer);
        List<SynthLayout.Planned> plan = SynthLayout.tensors(spec.arch(), shape, spec.mix(), vocab);
        long totalElements = 0;
        for (SynthLayout.Planned p : plan) {
            w.addTensor(p.name(), p.dims(), p.type());
            totalElements += p.elements();
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "parley-synth");
            t.setDaemon(true);
            return t;
        });
        long done = 0;
        try (GgufTensorSink sink = w.open(out)) {
            report(spec, 0);
            for (int i = 0; i < plan.size(); i++) {
                SynthLayout.Planned p = plan.get(i);
                long before = done;
                long total = totalElements;
                writeTensor(pool, sink, p, i, spec.seed(), shape, n -> report(spec, (double) (before + n) / total));
                done += p.elements();
            }
            sink.commit();
        } finally {
            pool.shutdownNow();
        }
        report(spec, 1.0);
        long bytes = java.nio.file.Files.size(out);
        return new Result(out, bytes, vocab, plan.size(), totalElements);
    }

    private void writeTensor(ExecutorService pool, GgufTensorSink sink, SynthLayout.Planned p, int index, long seed,
                             ModelShape shape, LongConsumer elementsDone) throws IOException {
        if (p.kind() == SynthLayout.Kind.ROPE_FREQS || p.kind() == SynthLayout.Kind.PHI3_FACTORS_SHORT
                || p.kind() == SynthLayout.Kind.PHI3_FACTORS_LONG) {
            float[] factors = switch (p.kind()) {
                case ROPE_FREQS -> SynthLayout.llama3RopeFactors(shape);
                case PHI3_FACTORS_LONG -> SynthLayout.phi3RopeFactors(shape, true);
                default -> SynthLayout.phi3RopeFactors(shape, false);
            };
            byte[] b = TensorEncoder.encode(p.type(), factors);
            sink.write(p.name(), b, 0, b.length);
            elementsDone.accept(p.elements());
            return;
        }
        int rowLen = Math.toIntExact(p.dims()[0]);
        long rows = p.elements() / rowLen;
        int rowsPerChunk = Math.max(1, CHUNK_ELEMENTS / rowLen);
        long chunks = (rows + rowsPerChunk - 1) / rowsPerChunk;
        int window = 2 * threads;
        ArrayDeque<Future<byte[]>> pending = new ArrayDeque<>();
        long submitted = 0;
        long written = 0;
        try {
            while (submitted < chunks || !pending.isEmpty()) {
                while (submitted < chunks && pending.size() < window) {
                    long c = submitted++;
                    int n = (int) (Math.min(rowsPerChunk, rows - c * rowsPerChunk) * rowLen);
                    long chunkSeed = RandomWeights.seedFor(seed, index, c);
                    pending.add(pool.submit(() -> makeChunk(p, n, chunkSeed)));
                }
                byte[] b = pending.removeFirst().get();
                sink.write(p.name(), b, 0, b.length);
                written += b.length;
                elementsDone.accept(written / p.type().typeSize() * p.type().blockSize());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while generating " + p.name(), e);
        } catch (ExecutionException e) {
            throw new IOException("failed to generate " + p.name() + ": " + e.getCause(), e.getCause());
        } finally {
            pending.forEach(f -> f.cancel(true));
        }
    }

    private static byte[] makeChunk(SynthLayout.Planned p, int n, long seed) {
        float[] values = new float[n];
        double mean = p.kind() == SynthLayout.Kind.NORM ? 1.0 : 0.0;
        RandomWeights.fill(values, n, seed, mean, p.std());
        byte[] out = new byte[Math.toIntExact(TensorEncoder.byteSize(p.type(), n))];
        TensorEncoder.encode(p.type(), values, 0, n, out, 0);
        return out;
    }

    private static void checkShape(String arch, ModelShape s, GgmlType type) {
        if (s.ropeScaling() != null && !arch.equals("llama")) {
            throw new IllegalArgumentException("shape " + s.name() + " has Llama 3 RoPE scaling, which only the llama"
                    + " architecture carries (as rope_freqs.weight), but the arch is " + arch);
        }
        // K-quant rows that 256 does not divide fall back to Q8_0 as llama.cpp's would (QuantMix): 32 must divide.
        int block = type.blockSize() == 256 ? 32 : type.blockSize();
        checkRow(s, type, "dim", s.dim(), block);
        checkRow(s, type, "heads * head dim", (long) s.heads() * s.headDim(), block);
        checkRow(s, type, "ffn", s.ffn(), block);
    }

    private static void checkRow(ModelShape s, GgmlType type, String what, long rowLength, int block) {
        if (rowLength % block != 0) {
            throw new IllegalArgumentException("shape " + s.name() + ": " + type + " stores rows in blocks of " + block
                    + ", so " + what + " must be a multiple of " + block + " but found " + rowLength);
        }
    }

    /** Every {@code tokenizer.*} key of a (vocabulary-only or full) GGUF file, in file order. */
    static Map<String, GgufMetadataValue> tokenizerKeys(Path vocabFile) throws IOException {
        Map<String, GgufMetadataValue> out = new LinkedHashMap<>();
        try (GgufFile f = GgufFile.open(vocabFile)) {
            f.metadata().forEach((k, v) -> {
                if (k.startsWith("tokenizer.")) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    private static void report(SynthSpec spec, double fraction) {
        if (spec.progress() != null) {
            spec.progress().accept(fraction);
        }
    }
}
