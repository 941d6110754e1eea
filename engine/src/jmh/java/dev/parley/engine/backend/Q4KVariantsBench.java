package dev.parley.engine.backend;

import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.tensor.ActivationFormat;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8KActivations;
import dev.parley.engine.tensor.RandomTensors;
import dev.parley.engine.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the scales and mins cost the 512-bit Q4_K decode kernel: the kernel as it is beside a copy without the mins
 * and with constant scales (its results are wrong on purpose; only its time counts). One thread, one 8192 x 2048
 * matrix (in the L3: compute-bound). The other variants measured in session 15 (written-out kernel with reduceLanes,
 * scales by selectFrom, an exact float decode kernel) are in docs/benchmarks.md and in the history (commit 311dacd).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx1g"})
public class Q4KVariantsBench {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_512;
    private static final VectorSpecies<Short> S = ShortVector.SPECIES_512;
    private static final VectorSpecies<Byte> B256 = ByteVector.SPECIES_256;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final int ROWS = 8192, COLS = 2048;

    private Arena arena;
    private Tensor w;
    private Q8KActivations a;
    private float[] out = new float[ROWS];

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(7);
        arena = Arena.ofShared();
        w = RandomTensors.tensor(GgmlType.Q4_K, ROWS, COLS, random, arena);
        Activations act = new Activations(1, COLS).set(RandomTensors.activations(1, COLS, random), 1, COLS);
        act.prepare(ActivationFormat.Q8_K);
        a = act.q8k();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public float[] kernel() {
        MemorySegment seg = w.data();
        long rb = w.rowBytes();
        for (int r = 0; r < ROWS; r++) {
            out[r] = KQuantKernels512.dotQ4_K(seg, r * rb, COLS / 256, a, 0);
        }
        return out;
    }

    @Benchmark
    public float[] variant() {
        MemorySegment seg = w.data();
        long rb = w.rowBytes();
        for (int r = 0; r < ROWS; r++) {
            out[r] = variant(seg, r * rb, COLS / 256, a, 0);
        }
        return out;
    }

    private static ShortVector bytes32(MemorySegment w, long at) {
        return (ShortVector) ByteVector.fromMemorySegment(B256, w, at, LE).convertShape(VectorOperators.B2S, S, 0);
    }

    static float variant(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        FloatVector acc = FloatVector.zero(F);
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * 256;
            IntVector isum = IntVector.zero(I);
            for (int c = 0; c < 4; c++) {
                ShortVector n = bytes32(w, bo + 16 + 32L * c);
                int o = xo + 64 * c;
                IntVector p0 = n.and((short) 15).mul(ShortVector.fromArray(S, q, o)).reinterpretAsInts();
                IntVector p1 = n.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, o + 32))
                        .reinterpretAsInts();
                isum = isum.add(p0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p0.lanewise(VectorOperators.ASHR, 16)).mul(3 + c))
                        .add(p1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p1.lanewise(VectorOperators.ASHR, 16)).mul(5 + c));
            }
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }
}
