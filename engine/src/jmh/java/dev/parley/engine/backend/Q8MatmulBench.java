package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Q8_0 x float matrix product of {@link VectorBackend} on FFN-shaped matrices (rows x cols of the SmolLM2-135M
 * gate/up and down projections and the Qwen2.5-0.5B gate/up), for 1 token and prompt chunks. {@code product} reuses
 * activations already quantized; {@code quantizeAndProduct} includes the activation pass, as the engine runs it.
 * Divide {@code 2 * rows * cols * tokens} by the time for GFLOPS.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx1g"})
public class Q8MatmulBench {

    @Param({"1536x576", "576x1536", "4864x896"})
    public String shape;

    @Param({"1", "8", "32", "128"})
    public int tokens;

    @Param({"1"})
    public int threads;

    /**
     * Copies of the matrix used in turn, one per call: enough copies (e.g. 16 of 4864 x 896, 70 MB) put the working
     * set beyond the 32 MiB L3, so that 1-token products read from memory as decode does.
     */
    @Param({"1"})
    public int copies;

    /** {@code decodePrefetch}: how far ahead of each block its extra one-byte load reads, in bytes. */
    @Param({"2048"})
    public long ahead;

    /** {@code decodeTouchPlain}: rows per tile read front to back before the kernel passes over them. */
    @Param({"48"})
    public int tile;

    /** Whether the weights are a mapped file, as the engine loads them (else native memory). */
    @Param({"true"})
    public boolean mapped;

    private Arena arena;
    private Tensor w;
    private Tensor[] ws;
    private int next;
    private Activations act;
    private float[] x;
    private float[] out;
    private VectorBackend backend;

    @Setup(Level.Trial)
    public void setUp() {
        String[] rc = shape.split("x");
        int rows = Integer.parseInt(rc[0]);
        int cols = Integer.parseInt(rc[1]);
        SplittableRandom random = new SplittableRandom(7);
        float[] dense = new float[rows * cols];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = (float) random.nextGaussian();
        }
        arena = Arena.ofShared();
        MemorySegment data = arena.allocate(GgmlType.Q8_0.byteSizeFor((long) rows * cols), 64);
        Q8_0Quantizer.quantize(dense, 0, dense.length, data, 0);
        if (mapped) {
            try {
                java.nio.file.Path file = java.nio.file.Files.createTempFile("q8bench", ".bin");
                file.toFile().deleteOnExit();
                java.nio.file.Files.write(file, data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
                    data = ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, data.byteSize(), arena);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        w = Tensor.of("bench", GgmlType.Q8_0, data, rows, cols);
        ws = new Tensor[copies];
        ws[0] = w;
        for (int c = 1; c < copies; c++) {
            MemorySegment copy = arena.allocate(data.byteSize(), 64);
            copy.copyFrom(data);
            ws[c] = Tensor.of("bench-" + c, GgmlType.Q8_0, copy, rows, cols);
        }
        x = new float[tokens * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian();
        }
        act = new Activations(tokens, cols);
        act.set(x, tokens, cols);
        out = new float[rows * tokens];
        backend = new VectorBackend(threads);
        backend.matmul(w, act, out);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        backend.close();
        arena.close();
    }

    /** The copy of the matrix to use now; the next call gets the next copy. */
    private Tensor nextMatrix() {
        Tensor m = ws[next];
        next = next + 1 == ws.length ? 0 : next + 1;
        return m;
    }

    @Benchmark
    public float[] product() {
        Tensor m = nextMatrix();
        backend.matmul(m, act, out);
        return out;
    }

    /**
     * The kernel this issue started from, for side-by-side ratios: one thread, tiles of 32 rows, 2 rows x 4 tokens
     * per pass, then one token at a time.
     */
    @Benchmark
    public float[] productBefore() {
        int rows = w.rows();
        int blocks = w.cols() / Activations.BLOCK;
        long rowBytes = w.rowBytes();
        MemorySegment seg = w.data();
        float[] xf = act.dequantizedQuants();
        int dim = w.cols();
        int quads = tokens - tokens % 4;
        for (int r0 = 0; r0 < rows; r0 += 32) {
            int r1 = Math.min(rows, r0 + 32);
            for (int t = 0; t < quads; t += 4) {
                int r = r0;
                for (; r + 1 < r1; r += 2) {
                    Q8FloatKernels.dotQ8_0r2x4w512(seg, r * rowBytes, rowBytes, blocks, xf, dim, t, out, rows, r);
                }
                if (r < r1) {
                    Q8FloatKernels.dotQ8_0x4w512(seg, r * rowBytes, blocks, xf, dim, t, out, rows, r);
                }
            }
            for (int t = quads; t < tokens; t++) {
                for (int r = r0; r < r1; r++) {
                    out[t * rows + r] = Q8FloatKernels.dotQ8_0w512(seg, r * rowBytes, blocks, xf, t * dim);
                }
            }
        }
        return out;
    }

    /**
     * The 256-bit prompt loop before the two-row x two-token tiles (AVX2 machines): each row in turn, two tokens per
     * pass. Compare with {@link #product} on a machine whose vectors are 256 bits.
     */
    @Benchmark
    public float[] productRowPairs256() {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        short[] qs = act.wideQuants();
        float[] sc = act.scales();
        int dim = m.cols();
        int pairs = tokens - tokens % 2;
        for (int r = 0; r < rows; r++) { // (and decode one row at a time)
            for (int t = 0; t < pairs; t += 2) {
                VectorKernels.dotQ8_0x2(seg, r * rowBytes, blocks, qs, dim, t, sc, out, rows, r);
            }
            for (int t = pairs; t < tokens; t++) {
                out[t * rows + r] = VectorKernels.dotQ8_0(seg, r * rowBytes, blocks, qs, t * dim, sc, t * blocks);
            }
        }
        return out;
    }

    /** One token, one thread, 2 and 3 rows per pass (more FMA chains and weight streams in flight). */
    @Benchmark
    public float[] decodeRows2() {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        float[] xf = act.dequantizedQuants();
        int r = 0;
        for (; r + 2 <= rows; r += 2) {
            Q8BlockingVariants.r2x1(seg, r * rowBytes, rowBytes, blocks, xf, 0, 0, out, rows, r);
        }
        for (; r < rows; r++) {
            out[r] = Q8FloatKernels.dotQ8_0w512(seg, r * rowBytes, blocks, xf, 0);
        }
        return out;
    }

    @Benchmark
    public float[] decodeRows3() {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        float[] xf = act.dequantizedQuants();
        int r = 0;
        for (; r + 3 <= rows; r += 3) {
            Q8BlockingVariants.r3x1(seg, r * rowBytes, rowBytes, blocks, xf, 0, 0, out, rows, r);
        }
        for (; r < rows; r++) {
            out[r] = Q8FloatKernels.dotQ8_0w512(seg, r * rowBytes, blocks, xf, 0);
        }
        return out;
    }

    /** One token: each tile of 48 rows read front to back first, then 3 rows per pass from cache. */
    @Benchmark
    public float[] decodeTouchRows3() {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        float[] xf = act.dequantizedQuants();
        int sink = 0;
        for (int r0 = 0; r0 < rows; r0 += 48) {
            int r1 = Math.min(rows, r0 + 48);
            sink += Q8TiledProduct.touch(seg, r0 * rowBytes, (r1 - r0) * rowBytes);
            int r = r0;
            for (; r + 3 <= r1; r += 3) {
                Q8BlockingVariants.r3x1(seg, r * rowBytes, rowBytes, blocks, xf, 0, 0, out, rows, r);
            }
            for (; r < r1; r++) {
                out[r] = Q8FloatKernels.dotQ8_0w512(seg, r * rowBytes, blocks, xf, 0);
            }
        }
        out[0] += sink == 12345 ? 1 : 0;
        return out;
    }

    private final int[] sinkBox = new int[1];

    /** A one-token kernel of one row: {@code (segment, row offset, blocks, activations) -> dot product}. */
    private interface RowKernel {
        float dot(MemorySegment seg, long base, int blocks, float[] x);
    }

    /** The next copy of the matrix, one token, one thread, row after row through {@code kernel}. */
    private float[] decodeRows(RowKernel kernel) {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        float[] xf = act.dequantizedQuants();
        for (int r = 0; r < rows; r++) {
            out[r] = kernel.dot(seg, r * rowBytes, blocks, xf);
        }
        return out;
    }

    /** One token, one thread, the engine's one-row kernel, row after row. */
    @Benchmark
    public float[] decodePlain() {
        return decodeRows((seg, base, blocks, x) -> Q8FloatKernels.dotQ8_0w512(seg, base, blocks, x, 0));
    }

    /** {@code decodePlain} with one byte load {@code ahead} bytes further on per block: a software prefetch. */
    @Benchmark
    public float[] decodePrefetch() {
        long limit = ws[next].data().byteSize() - 1;
        return decodeRows((seg, base, blocks, x) -> Q8DecodeVariants.prefetch(seg, base, blocks, x, 0, ahead, limit,
                sinkBox));
    }

    /** One token with each block's two products summed before its scale (fewer operations; other bits). */
    @Benchmark
    public float[] decodeScaleAfter() {
        return decodeRows((seg, base, blocks, x) -> Q8DecodeVariants.scaleAfter(seg, base, blocks, x, 0));
    }

    /** The one-token kernel's loads alone (two 16-byte loads per 34-byte block, OR-ed): the read side's limit. */
    @Benchmark
    public int decodeLoadsOnly() {
        Tensor m = nextMatrix();
        MemorySegment seg = m.data();
        long blocks = seg.byteSize() / 34;
        VectorSpecies<Byte> b128 = ByteVector.SPECIES_128;
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        ByteVector acc = ByteVector.zero(b128);
        for (long b = 0; b < blocks; b++) {
            long bo = b * 34;
            acc = acc.or(ByteVector.fromMemorySegment(b128, seg, bo + 2, le))
                    .or(ByteVector.fromMemorySegment(b128, seg, bo + 18, le));
        }
        return acc.reinterpretAsInts().lane(0);
    }

    /** 64-byte loads front to back over the matrix (Q8TiledProduct.touch), the streaming limit on this data. */
    @Benchmark
    public int touchOnly() {
        Tensor m = nextMatrix();
        MemorySegment seg = m.data();
        return Q8TiledProduct.touch(seg, 0, seg.byteSize());
    }

    /** One token: tiles of {@code tile} rows read front to back first, then the one-row kernel over them. */
    @Benchmark
    public float[] decodeTouchPlain() {
        Tensor m = nextMatrix();
        int rows = m.rows();
        int blocks = m.cols() / Activations.BLOCK;
        long rowBytes = m.rowBytes();
        MemorySegment seg = m.data();
        float[] xf = act.dequantizedQuants();
        int sink = 0;
        for (int r0 = 0; r0 < rows; r0 += tile) {
            int r1 = Math.min(rows, r0 + tile);
            sink += Q8TiledProduct.touch(seg, r0 * rowBytes, (r1 - r0) * rowBytes);
            for (int r = r0; r < r1; r++) {
                out[r] = Q8FloatKernels.dotQ8_0w512(seg, r * rowBytes, blocks, xf, 0);
            }
        }
        out[0] += sink == 12345 ? 1 : 0;
        return out;
    }

    @Benchmark
    public float[] quantizeAndProduct() {
        act.set(x, tokens, w.cols());
        backend.matmul(w, act, out);
        return out;
    }
}
