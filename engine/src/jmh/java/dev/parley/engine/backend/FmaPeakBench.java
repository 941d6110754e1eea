package dev.parley.engine.backend;

import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The machine's fused multiply-add peak through the Vector API: 16 independent chains of 512-bit FMAs (enough to
 * cover the FMA latency on two pipes), nothing else in the loop. The score is FMAs of one vector per microsecond
 * per thread; GFLOPS = score * 16 lanes * 2 / 1000. Run with {@code -t 2} for both cores.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class FmaPeakBench {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final int ITER = 4096;
    private static final int CHAINS = 16;

    public float a = 0.999f;
    public float b = 1e-7f;

    @Benchmark
    @OperationsPerInvocation(ITER * CHAINS)
    public float fma512() {
        FloatVector m = FloatVector.broadcast(F, a);
        FloatVector c = FloatVector.broadcast(F, b);
        FloatVector v0 = FloatVector.broadcast(F, 1f), v1 = v0.add(1f), v2 = v0.add(2f), v3 = v0.add(3f);
        FloatVector v4 = v0.add(4f), v5 = v0.add(5f), v6 = v0.add(6f), v7 = v0.add(7f);
        FloatVector v8 = v0.add(8f), v9 = v0.add(9f), v10 = v0.add(10f), v11 = v0.add(11f);
        FloatVector v12 = v0.add(12f), v13 = v0.add(13f), v14 = v0.add(14f), v15 = v0.add(15f);
        for (int i = 0; i < ITER; i++) {
            v0 = v0.fma(m, c); v1 = v1.fma(m, c); v2 = v2.fma(m, c); v3 = v3.fma(m, c);
            v4 = v4.fma(m, c); v5 = v5.fma(m, c); v6 = v6.fma(m, c); v7 = v7.fma(m, c);
            v8 = v8.fma(m, c); v9 = v9.fma(m, c); v10 = v10.fma(m, c); v11 = v11.fma(m, c);
            v12 = v12.fma(m, c); v13 = v13.fma(m, c); v14 = v14.fma(m, c); v15 = v15.fma(m, c);
        }
        return v0.add(v1).add(v2).add(v3).add(v4).add(v5).add(v6).add(v7).add(v8).add(v9).add(v10).add(v11)
                .add(v12).add(v13).add(v14).add(v15).reduceLanes(VectorOperators.ADD);
    }
}
