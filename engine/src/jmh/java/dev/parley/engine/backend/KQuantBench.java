package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.RandomTensors;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.Random;
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
 * K-quant x Q8_K matrix products of {@link VectorBackend} on Llama-3.2-1B-shaped matrices (the FFN's gate/up
 * 8192 x 2048 and down 2048 x 8192), for decode (1 token) and prompt chunks. {@code copies} copies of the matrix are
 * used in turn so that the working set is beyond the L3, as in decode. Divide the weights' bytes by the time for the
 * read bandwidth, {@code rows * cols * tokens} by it for weights a second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx2g"})
public class KQuantBench {

    @Param({"Q4_K", "Q6_K"})
    public GgmlType type;

    @Param({"8192x2048", "2048x8192"})
    public String shape;

    @Param({"1"})
    public int tokens;

    @Param({"1"})
    public int threads;

    @Param({"8"})
    public int copies;

    @Param({"512"})
    public int bits;

    private Arena arena;
    private Tensor[] ws;
    private int next;
    private Activations act;
    private float[] out;
    private VectorBackend backend;

    @Setup(Level.Trial)
    public void setUp() {
        String[] rc = shape.split("x");
        int rows = Integer.parseInt(rc[0]);
        int cols = Integer.parseInt(rc[1]);
        Random random = new Random(7);
        arena = Arena.ofShared();
        ws = new Tensor[copies];
        for (int c = 0; c < copies; c++) {
            ws[c] = RandomTensors.tensor(type, rows, cols, random, arena);
        }
        act = new Activations(tokens, cols).set(RandomTensors.activations(tokens, cols, random), tokens, cols);
        out = new float[rows * tokens];
        backend = new VectorBackend(threads, bits);
        backend.matmul(ws[0], act, out);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        backend.close();
        arena.close();
    }

    @Benchmark
    public float[] product() {
        Tensor m = ws[next];
        next = next + 1 == ws.length ? 0 : next + 1;
        backend.matmul(m, act, out);
        return out;
    }
}
