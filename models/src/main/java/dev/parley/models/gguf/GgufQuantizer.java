package dev.parley.models.gguf;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufMetadataValue;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code parley models quantize}: converts the F32 / F16 / BF16 weight matrices of a GGUF file to a
 * {@link QuantMix} with ggml's reference quantizers ({@link TensorEncoder}), tensor by tensor in file order,
 * chunks of rows on several threads and streamed to a temporary file renamed at the end (so memory stays bounded
 * and a failure leaves no file). Metadata is copied with {@code general.file_type} set to the mix; tensors the mix
 * does not change (norms, RoPE factors, matrices already of their type) are copied byte for byte.
 */
public final class GgufQuantizer {

    private static final int CHUNK_ELEMENTS = 1 << 20;

    private final int threads;

    public GgufQuantizer(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("expected at least 1 thread but found " + threads);
        }
        this.threads = threads;
    }

    /** What was written: the file, its size, and how many tensors of each type it holds. */
    public record Result(Path path, long bytes, Map<GgmlType, Integer> typeCounts) {
    }

    /**
     * Converts {@code in} to {@code out}; {@code progress} receives the fraction of source bytes done (0 to 1).
     *
     * @throws IOException              when a file cannot be read or written
     * @throws IllegalArgumentException naming the tensor when one that must change type is not F32, F16 or BF16
     */
    public Result quantize(Path in, Path out, QuantMix mix, Consumer<Double> progress) throws IOException {
        try (GgufFile src = GgufFile.open(in)) {
            String arch = src.getString("general.architecture", "");
            List<GgufTensorInfo> tensors = src.tensors();
            int layers = (int) src.getLong(arch + ".block_count", countLayers(tensors));
            boolean hasOutput = src.findTensor("output.weight").isPresent();
            GgufWriter w = new GgufWriter(src.version());
            Map<String, GgufMetadataValue> meta = new LinkedHashMap<>(src.metadata());
            meta.put("general.file_type", GgufMetadataValue.ofUint32(mix.fileType()));
            meta.putIfAbsent("general.quantization_version", GgufMetadataValue.ofUint32(2));
            w.putAll(meta);
            List<GgmlType> targets = new ArrayList<>();
            Map<GgmlType, Integer> counts = new LinkedHashMap<>();
            long total = 0;
            for (GgufTensorInfo t : tensors) {
                GgmlType target = mix.typeFor(t.name(), t.rank(), t.dim(0), layers, hasOutput);
                if (target == null) {
                    target = t.type();
                }
                if (target != t.type() && t.type() != GgmlType.F32 && t.type() != GgmlType.F16 && t.type() != GgmlType.BF16) {
                    throw new IllegalArgumentException(in.getFileName() + ": expected tensor '" + t.name()
                            + "' in F32, F16 or BF16 to quantize it to " + target + " but found " + t.type());
                }
                targets.add(target);
                counts.merge(target, 1, Integer::sum);
                w.addTensor(t.name(), t.dims(), target);
                total += t.byteSize();
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
                Thread th = new Thread(r, "parley-quantize");
                th.setDaemon(true);
                return th;
            });
            long done = 0;
            try (GgufTensorSink sink = w.open(out)) {
                progress.accept(0.0);
                for (int i = 0; i < tensors.size(); i++) {
                    GgufTensorInfo t = tensors.get(i);
                    MemorySegment data = src.tensorData(t);
                    if (targets.get(i) == t.type()) {
                        sink.write(t.name(), data);
                    } else {
                        convert(pool, sink, t, data, targets.get(i));
                    }
                    done += t.byteSize();
                    progress.accept(total == 0 ? 1.0 : (double) done / total);
                }
                sink.commit();
            } finally {
                pool.shutdownNow();
            }
            return new Result(out, java.nio.file.Files.size(out), counts);
        }
    }

    private void convert(ExecutorService pool, GgufTensorSink sink, GgufTensorInfo t, MemorySegment data, GgmlType target)
            throws IOException {
        int cols = Math.toIntExact(t.dim(0));
        int rows = Math.toIntExact(t.elementCount() / cols);
        Tensor source = Tensor.of(t.name(), t.type(), data, rows, cols);
        int rowsPerChunk = Math.max(1, CHUNK_ELEMENTS / cols);
        int chunks = (rows + rowsPerChunk - 1) / rowsPerChunk;
        ArrayDeque<Future<byte[]>> pending = new ArrayDeque<>();
        int submitted = 0;
        try {
            while (submitted < chunks || !pending.isEmpty()) {
                while (submitted < chunks && pending.size() < 2 * threads) {
                    int from = submitted++ * rowsPerChunk;
                    int to = Math.min(rows, from + rowsPerChunk);
                    pending.add(pool.submit(() -> encodeRows(source, from, to, target)));
                }
                byte[] b = pending.removeFirst().get();
                sink.write(t.name(), b, 0, b.length);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while quantizing " + t.name(), e);
        } catch (ExecutionException e) {
            throw new IOException("failed to quantize " + t.name() + ": " + e.getCause(), e.getCause());
        } finally {
            pending.forEach(f -> f.cancel(true));
        }
    }

    private static byte[] encodeRows(Tensor source, int from, int to, GgmlType target) {
        int cols = source.cols();
        float[] values = new float[(to - from) * cols];
        for (int r = from; r < to; r++) {
            source.dequantizeRow(r, values, (r - from) * cols);
        }
        return TensorEncoder.encode(target, values);
    }

    private static long countLayers(List<GgufTensorInfo> tensors) {
        int max = -1;
        for (GgufTensorInfo t : tensors) {
            if (t.name().startsWith("blk.")) {
                int dot = t.name().indexOf('.', 4);
                try {
                    max = Math.max(max, Integer.parseInt(t.name().substring(4, dot)));
                } catch (RuntimeException e) {
                    // not a numbered block
                }
            }
        }
        return max + 1;
    }
}
