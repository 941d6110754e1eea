package dev.parley.engine.backend;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The machine's streaming read bandwidth, the limit of batch-1 decode: each thread sums its own 512 MiB of native
 * memory (far beyond L3) with 512-bit loads, four accumulators. GB/s = 0.536870912 / (seconds per op); with
 * {@code -t 2} each thread reads its own buffer, so the sum of both threads' rates is the machine's.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx512m"})
public class StreamReadBench {

    static final long BYTES = 512L << 20;
    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_512;
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_512;

    private Arena arena;
    private MemorySegment data;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        data = arena.allocate(BYTES, 64);
        for (long i = 0; i < BYTES; i += 8) {
            data.set(java.lang.foreign.ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int read512MiB() {
        IntVector a0 = IntVector.zero(I), a1 = a0, a2 = a0, a3 = a0;
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        for (long o = 0; o < BYTES; o += 256) {
            a0 = a0.add(ByteVector.fromMemorySegment(B, data, o, le).reinterpretAsInts());
            a1 = a1.add(ByteVector.fromMemorySegment(B, data, o + 64, le).reinterpretAsInts());
            a2 = a2.add(ByteVector.fromMemorySegment(B, data, o + 128, le).reinterpretAsInts());
            a3 = a3.add(ByteVector.fromMemorySegment(B, data, o + 192, le).reinterpretAsInts());
        }
        return a0.add(a1).add(a2).add(a3).reduceLanes(VectorOperators.ADD);
    }
}
