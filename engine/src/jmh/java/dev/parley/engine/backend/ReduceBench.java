package dev.parley.engine.backend;

import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The lane sum that ends every dot product: the Vector API's reduceLanes against a butterfly of rearranges. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class ReduceBench {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorShuffle<Float> S8 = VectorShuffle.fromOp(F, i -> i ^ 8);
    private static final VectorShuffle<Float> S4 = VectorShuffle.fromOp(F, i -> i ^ 4);
    private static final VectorShuffle<Float> S2 = VectorShuffle.fromOp(F, i -> i ^ 2);
    private static final VectorShuffle<Float> S1 = VectorShuffle.fromOp(F, i -> i ^ 1);

    private final float[] data = new float[16 * 64];
    private final float[] out = new float[64];

    @Benchmark
    public float[] reduceLanes() {
        for (int i = 0; i < 64; i++) {
            out[i] = FloatVector.fromArray(F, data, i * 16).reduceLanes(VectorOperators.ADD);
        }
        return out;
    }

    @Benchmark
    public float[] butterfly() {
        for (int i = 0; i < 64; i++) {
            FloatVector v = FloatVector.fromArray(F, data, i * 16);
            v = v.add(v.rearrange(S8));
            v = v.add(v.rearrange(S4));
            v = v.add(v.rearrange(S2));
            v = v.add(v.rearrange(S1));
            out[i] = v.lane(0);
        }
        return out;
    }
}
