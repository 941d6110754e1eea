package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8_0Quantizer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * One thread, one micro-kernel shape (rows x tokens per pass) over a tile of 64 rows x 24 tokens of an FFN-shaped
 * Q8_0 matrix (cache-resident): which register blocking the JIT turns into the fastest code.
 * GFLOPS = 2 * 64 * cols * 24 / time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class Q8TileBench {

    private static final int ROWS = 64;
    private static final int TOKENS = 24;

    @Param({"576", "1536"})
    public int cols;

    @Param({"r2x4old", "r3x4", "r2x4", "r1x8", "r1x12", "r2x6", "s2x4", "s2x8", "s4x4", "s3x6"})
    public String kernel;

    private Arena arena;
    private MemorySegment w;
    private long rowBytes;
    private float[] x;
    private float[] out;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(3);
        float[] dense = new float[ROWS * cols];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = (float) random.nextGaussian();
        }
        arena = Arena.ofShared();
        rowBytes = GgmlType.Q8_0.byteSizeFor(cols);
        w = arena.allocate(rowBytes * ROWS, 64);
        Q8_0Quantizer.quantize(dense, 0, dense.length, w, 0);
        x = new float[TOKENS * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian();
        }
        out = new float[TOKENS * ROWS];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public float[] tile() {
        int blocks = cols / Activations.BLOCK;
        switch (kernel) {
            case "r2x4old" -> {
                for (int t = 0; t < TOKENS; t += 4) {
                    for (int r = 0; r < ROWS; r += 2) {
                        Q8FloatKernels.dotQ8_0r2x4w512(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "r2x4" -> {
                for (int t = 0; t < TOKENS; t += 4) {
                    for (int r = 0; r < ROWS; r += 2) {
                        Q8BlockingVariants.r2x4(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "r1x8" -> {
                for (int t = 0; t < TOKENS; t += 8) {
                    for (int r = 0; r < ROWS; r++) {
                        Q8BlockingVariants.r1x8(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "r1x12" -> {
                for (int t = 0; t < TOKENS; t += 12) {
                    for (int r = 0; r < ROWS; r++) {
                        Q8BlockingVariants.r1x12(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "r2x6" -> {
                for (int t = 0; t < TOKENS; t += 6) {
                    for (int r = 0; r < ROWS; r += 2) {
                        Q8BlockingVariants.r2x6(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "r3x4" -> {
                for (int t = 0; t < TOKENS; t += 4) {
                    for (int r = 0; r + 3 <= 63; r += 3) {
                        Q8TileKernels.r3x4(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                    Q8FloatKernels.dotQ8_0x4w512(w, 63 * rowBytes, blocks, x, cols, t, out, ROWS, 63);
                }
            }
            case "s2x4" -> {
                for (int t = 0; t < TOKENS; t += 4) {
                    for (int r = 0; r < ROWS; r += 2) {
                        Q8BlockingVariants.s2x4(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "s2x8" -> {
                for (int t = 0; t < TOKENS; t += 8) {
                    for (int r = 0; r < ROWS; r += 2) {
                        Q8BlockingVariants.s2x8(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "s4x4" -> {
                for (int t = 0; t < TOKENS; t += 4) {
                    for (int r = 0; r < ROWS; r += 4) {
                        Q8BlockingVariants.s4x4(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            case "s3x6" -> {
                for (int t = 0; t < TOKENS; t += 6) {
                    for (int r = 0; r + 3 <= 63; r += 3) {
                        Q8BlockingVariants.s3x6(w, r * rowBytes, rowBytes, blocks, x, cols, t, out, ROWS, r);
                    }
                }
            }
            default -> throw new IllegalArgumentException(kernel);
        }
        return out;
    }
}
