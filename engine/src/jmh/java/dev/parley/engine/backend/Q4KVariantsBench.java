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
 * Where the cycles of the 512-bit Q4_K decode kernel go: the kernel as it is beside copies with one part taken out
 * (the mins, the scalar scale unpacking, the pair sums). The parts' results are wrong on purpose; only their times
 * count. One thread, one 8192 x 2048 matrix (in the L3: compute-bound).
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

    @Benchmark
    public float[] unrolled() {
        MemorySegment seg = w.data();
        long rb = w.rowBytes();
        for (int r = 0; r < ROWS; r++) {
            out[r] = unrolled(seg, r * rb, COLS / 256, a, 0);
        }
        return out;
    }

    @Benchmark
    public float[] selectFrom() {
        MemorySegment seg = w.data();
        long rb = w.rowBytes();
        for (int r = 0; r < ROWS; r++) {
            out[r] = selectFrom(seg, r * rb, COLS / 256, a, 0);
        }
        return out;
    }

    private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
    private static final jdk.incubator.vector.VectorShuffle<Integer> SC_LOW = shuffle(i -> i % 8 < 4 ? i % 8 : i % 8 + 4);
    private static final jdk.incubator.vector.VectorShuffle<Integer> SC_HIGH = shuffle(i -> i % 8 < 4 ? i % 8 : i % 8 - 4);
    private static final jdk.incubator.vector.VectorShuffle<Integer> MIN_LOW = shuffle(i -> i / 2 + 4);
    private static final jdk.incubator.vector.VectorShuffle<Integer> MIN_HIGH = shuffle(i -> i / 2);
    private static final jdk.incubator.vector.VectorMask<Integer> FIRST_FOUR_J = jdk.incubator.vector.VectorMask.fromLong(I, 0x0f0f);
    private static final jdk.incubator.vector.VectorMask<Integer> FIRST_FOUR_G = jdk.incubator.vector.VectorMask.fromLong(I, 0x00ff);
    private static final jdk.incubator.vector.VectorShuffle<Integer> J0 = shuffle(i -> 0), J1 = shuffle(i -> 1), J2 = shuffle(i -> 2),
            J3 = shuffle(i -> 3), J4 = shuffle(i -> 4), J5 = shuffle(i -> 5), J6 = shuffle(i -> 6), J7 = shuffle(i -> 7);

    private static jdk.incubator.vector.VectorShuffle<Integer> shuffle(java.util.function.IntUnaryOperator lane) {
        int[] index = new int[16];
        for (int i = 0; i < 16; i++) {
            index[i] = lane.applyAsInt(i);
        }
        return jdk.incubator.vector.VectorShuffle.fromArray(I, index, 0);
    }

    static float unrolled(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * 256;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector lo = s.rearrange(SC_LOW);
            IntVector hi = s.rearrange(SC_HIGH);
            IntVector sc = lo.and(15).or(hi.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(lo.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector mh = s.rearrange(MIN_HIGH);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(mh.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(ml.and(63), FIRST_FOUR_G);
            ShortVector n0 = bytes32(w, bo + 16), n1 = bytes32(w, bo + 48), n2 = bytes32(w, bo + 80), n3 = bytes32(w, bo + 112);
            IntVector p0 = n0.and((short) 15).mul(ShortVector.fromArray(S, q, xo)).reinterpretAsInts();
            IntVector p1 = n0.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 32)).reinterpretAsInts();
            IntVector p2 = n1.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 64)).reinterpretAsInts();
            IntVector p3 = n1.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 96)).reinterpretAsInts();
            IntVector p4 = n2.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 128)).reinterpretAsInts();
            IntVector p5 = n2.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 160)).reinterpretAsInts();
            IntVector p6 = n3.and((short) 15).mul(ShortVector.fromArray(S, q, xo + 192)).reinterpretAsInts();
            IntVector p7 = n3.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, xo + 224)).reinterpretAsInts();
            IntVector isum = p0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p0.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J0))
                    .add(p1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p1.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J1)))
                    .add(p2.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p2.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J2)))
                    .add(p3.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p3.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J3)))
                    .add(p4.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p4.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J4)))
                    .add(p5.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p5.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J5)))
                    .add(p6.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p6.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J6)))
                    .add(p7.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16).add(p7.lanewise(VectorOperators.ASHR, 16)).mul(sc.rearrange(J7)));
            IntVector msum = m.mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - off.reduceLanes(VectorOperators.ADD);
    }

    static float selectFrom(MemorySegment w, long base, int blocks, Q8KActivations a, int t) {
        short[] q = a.wideQuants();
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * 256;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector lo = s.rearrange(SC_LOW);
            IntVector hi = s.rearrange(SC_HIGH);
            IntVector sc = lo.and(15).or(hi.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(lo.and(63), FIRST_FOUR_J);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector mh = s.rearrange(MIN_HIGH);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(mh.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(ml.and(63), FIRST_FOUR_G);
            IntVector isum = IntVector.zero(I);
            for (int c = 0; c < 4; c++) {
                ShortVector n = bytes32(w, bo + 16 + 32L * c);
                int o = xo + 64 * c;
                IntVector p0 = n.and((short) 15).mul(ShortVector.fromArray(S, q, o)).reinterpretAsInts();
                IntVector p1 = n.lanewise(VectorOperators.LSHR, 4).and((short) 15).mul(ShortVector.fromArray(S, q, o + 32))
                        .reinterpretAsInts();
                isum = isum.add(p0.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p0.lanewise(VectorOperators.ASHR, 16)).mul(IntVector.broadcast(I, 2 * c).selectFrom(sc)))
                        .add(p1.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16)
                                .add(p1.lanewise(VectorOperators.ASHR, 16)).mul(IntVector.broadcast(I, 2 * c + 1).selectFrom(sc)));
            }
            IntVector msum = m.mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = ((FloatVector) isum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - off.reduceLanes(VectorOperators.ADD);
    }

    private static final jdk.incubator.vector.VectorShuffle<Float> F0 = fshuffle(0), F1 = fshuffle(1), F2 = fshuffle(2), F3 = fshuffle(3),
            F4 = fshuffle(4), F5 = fshuffle(5), F6 = fshuffle(6), F7 = fshuffle(7);

    private static jdk.incubator.vector.VectorShuffle<Float> fshuffle(int j) {
        int[] index = new int[16];
        java.util.Arrays.fill(index, j);
        return jdk.incubator.vector.VectorShuffle.fromArray(F, index, 0);
    }

    private float[] xf;

    @Benchmark
    public float[] floatPath() {
        if (xf == null) {
            short[] q = a.wideQuants();
            xf = new float[COLS];
            for (int i = 0; i < COLS; i++) {
                xf[i] = q[i];
            }
        }
        MemorySegment seg = w.data();
        long rb = w.rowBytes();
        for (int r = 0; r < ROWS; r++) {
            out[r] = floatPath(seg, r * rb, COLS / 256, a, xf, 0);
        }
        return out;
    }

    static float floatPath(MemorySegment w, long base, int blocks, Q8KActivations a, float[] x, int t) {
        float[] ys = a.scales();
        int[] bs = a.bsums();
        FloatVector acc = FloatVector.zero(F);
        FloatVector off = acc;
        for (int b = 0; b < blocks; b++) {
            long bo = base + (long) b * 144;
            int ab = t * blocks + b;
            int xo = ab * 256;
            IntVector s = ((IntVector) ByteVector.fromMemorySegment(B128, w, bo + 4, LE).convertShape(VectorOperators.B2I, I, 0)).and(0xff);
            IntVector lo = s.rearrange(SC_LOW);
            IntVector hi = s.rearrange(SC_HIGH);
            FloatVector scF = (FloatVector) lo.and(15).or(hi.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(lo.and(63), FIRST_FOUR_J).convert(VectorOperators.I2F, 0);
            IntVector ml = s.rearrange(MIN_LOW);
            IntVector mh = s.rearrange(MIN_HIGH);
            IntVector m = ml.lanewise(VectorOperators.LSHR, 4).or(mh.lanewise(VectorOperators.LSHR, 2).and(0x30)).blend(ml.and(63), FIRST_FOUR_G);
            FloatVector isum = FloatVector.zero(F);
            IntVector na0 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 16, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector nb0 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 32, LE).convertShape(VectorOperators.B2I, I, 0);
            FloatVector tl0 = ((FloatVector) na0.and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 0));
            tl0 = ((FloatVector) nb0.and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 16), tl0);
            isum = tl0.fma(scF.rearrange(F0), isum);
            FloatVector th0 = ((FloatVector) na0.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 32));
            th0 = ((FloatVector) nb0.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 48), th0);
            isum = th0.fma(scF.rearrange(F1), isum);
            IntVector na1 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 48, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector nb1 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 64, LE).convertShape(VectorOperators.B2I, I, 0);
            FloatVector tl1 = ((FloatVector) na1.and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 64));
            tl1 = ((FloatVector) nb1.and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 80), tl1);
            isum = tl1.fma(scF.rearrange(F2), isum);
            FloatVector th1 = ((FloatVector) na1.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 96));
            th1 = ((FloatVector) nb1.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 112), th1);
            isum = th1.fma(scF.rearrange(F3), isum);
            IntVector na2 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 80, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector nb2 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 96, LE).convertShape(VectorOperators.B2I, I, 0);
            FloatVector tl2 = ((FloatVector) na2.and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 128));
            tl2 = ((FloatVector) nb2.and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 144), tl2);
            isum = tl2.fma(scF.rearrange(F4), isum);
            FloatVector th2 = ((FloatVector) na2.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 160));
            th2 = ((FloatVector) nb2.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 176), th2);
            isum = th2.fma(scF.rearrange(F5), isum);
            IntVector na3 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 112, LE).convertShape(VectorOperators.B2I, I, 0);
            IntVector nb3 = (IntVector) ByteVector.fromMemorySegment(B128, w, bo + 128, LE).convertShape(VectorOperators.B2I, I, 0);
            FloatVector tl3 = ((FloatVector) na3.and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 192));
            tl3 = ((FloatVector) nb3.and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 208), tl3);
            isum = tl3.fma(scF.rearrange(F6), isum);
            FloatVector th3 = ((FloatVector) na3.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).mul(FloatVector.fromArray(F, x, xo + 224));
            th3 = ((FloatVector) nb3.lanewise(VectorOperators.LSHR, 4).and(15).convert(VectorOperators.I2F, 0)).fma(FloatVector.fromArray(F, x, xo + 240), th3);
            isum = th3.fma(scF.rearrange(F7), isum);
            IntVector msum = m.mul(IntVector.fromArray(I, bs, ab * 16));
            float yd = ys[ab];
            acc = isum.fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo)) * yd), acc);
            off = ((FloatVector) msum.convert(VectorOperators.I2F, 0))
                    .fma(FloatVector.broadcast(F, Float.float16ToFloat(w.get(I16, bo + 2)) * yd), off);
        }
        return acc.reduceLanes(VectorOperators.ADD) - off.reduceLanes(VectorOperators.ADD);
    }
}
