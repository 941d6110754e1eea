package dev.parley.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorExp} against {@code Math.exp} rounded to float (within 2 ulp), its vector and scalar forms against
 * each other (the same bits on every lane), and {@link SumTree}'s shuffles against a plain sum.
 */
class VectorExpTest {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;

    @Test
    void vectorAndScalarGiveTheSameBitsWithinTwoUlpOfTheRoundedExp() {
        SplittableRandom random = new SplittableRandom(7);
        float[] x = new float[1 << 16];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) (random.nextDouble() * 175 - 87);
        }
        x[0] = 0f;
        x[1] = -0f;
        x[2] = VectorExp.LOW;
        x[3] = 88f;
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i += F.length()) {
            VectorExp.exp(FloatVector.fromArray(F, x, i)).intoArray(y, i);
        }
        double worstUlps = 0;
        for (int i = 0; i < x.length; i++) {
            float scalar = VectorExp.exp(x[i]);
            assertEquals(Float.floatToRawIntBits(scalar), Float.floatToRawIntBits(y[i]),
                    "lane and scalar should agree bit for bit at x = " + x[i]);
            double exact = Math.exp(x[i]);
            double ulps = Math.abs(scalar - exact) / Math.ulp((float) exact);
            worstUlps = Math.max(worstUlps, ulps);
        }
        assertEquals(1f, VectorExp.exp(0f), "e^0");
        assertTrue(worstUlps <= 2, "expected exp within 2 ulp of Math.exp but the worst was " + worstUlps + " ulp");
    }

    @Test
    void theEndsOfTheRangeAreClampedNotInfiniteOrNegative() {
        assertEquals(0f, VectorExp.exp(-100f), "far below the range: 0");
        assertEquals(0f, VectorExp.exp(Float.NEGATIVE_INFINITY), "e^-inf");
        float top = VectorExp.exp(1000f);
        assertTrue(Float.isFinite(top) && top == VectorExp.exp(VectorExp.HIGH), "far above the range: e^HIGH, " + top);
        float[] lanes = new float[F.length()];
        java.util.Arrays.fill(lanes, -1e30f);
        VectorExp.exp(FloatVector.fromArray(F, lanes, 0)).intoArray(lanes, 0);
        for (float v : lanes) {
            assertEquals(0f, v, "a vector lane far below the range");
        }
    }

    @Test
    void theSumTreeAddsEveryLaneOnce() {
        float[] v = new float[F.length()];
        float plain = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = 1 << i;
            plain += v[i];
        }
        FloatVector s = FloatVector.fromArray(F, v, 0);
        for (int bit = F.length() / 2; bit >= 1; bit /= 2) {
            s = s.add(s.rearrange(SumTree.swap(F, bit)));
        }
        for (int i = 0; i < v.length; i++) {
            assertEquals(plain, s.lane(i), "after the tree every lane holds the sum; lane " + i);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SumTree.swap(F, F.length()));
        assertTrue(e.getMessage().contains("power of two below"), e.getMessage());
    }
}
