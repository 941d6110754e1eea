package dev.parley.engine.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every parity model on both backends against llama.cpp's goldens: the greedy ids of all cases and
 * both batch turns, each step's top-5 logits and the full step-0 logits, within tolerance.
 */
class ParityTest {

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("m1-llama-spm-q8_0", 0.3f),
                Arguments.of("m2-llama-spm-f16", 0.1f),
                Arguments.of("m2-llama-spm-f32", 0.1f),
                Arguments.of("m3-llama-gpt2-tied-q8_0", 0.3f),
                // K-quants: activations rounded to Q8_K as llama.cpp does, so as close as Q8_0 (README: 0.6 safe)
                Arguments.of("m6-qwen3-qwen2-q4_k_m", 0.3f),
                Arguments.of("m7-llama-bpe-tied-q6_k", 0.3f),
                Arguments.of("m8-gemma3-spm-swa-q5_k", 0.3f))
                .flatMap(a -> Stream.of(BackendKind.SCALAR, BackendKind.VECTOR)
                        .map(b -> Arguments.of(a.get()[0], a.get()[1], b)));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("models")
    void matchesLlamaCpp(String model, float tolerance, BackendKind backend) throws Exception {
        Golden golden = Golden.load(model);
        Deviation dev = new Deviation();
        try (LlamaModel m = LlamaModel.load(golden.gguf(), new ModelOptions(backend, 2))) {
            for (Golden.Run run : golden.cases()) {
                try (InferenceSession s = m.newSession(512)) {
                    greedy(s, run, tolerance, dev);
                }
            }
            try (InferenceSession s = m.newSession(512)) {
                greedy(s, golden.batchTurn1(), tolerance, dev);
                assertEquals(golden.firstFedPos(), s.position(), "position before turn 2");
                greedy(s, golden.batchTurn2(), tolerance, dev);
            }
        }
        System.out.printf("parity %-26s %-6s max |dev| top-5 %.4f, step-0 logits %.4f%n", model,
                backend.label(), dev.top5, dev.full);
    }

    /** Feeds the run's tokens, then checks each greedy step and feeds its token (all but the last). */
    private static void greedy(InferenceSession s, Golden.Run run, float tol, Deviation dev) {
        float[] logits = s.ingest(run.fedIds());
        dev.full = Math.max(dev.full, checkAll(run, logits, tol));
        int[] generated = new int[run.generatedIds().length];
        for (int k = 0; k < generated.length; k++) {
            if (k > 0) {
                logits = s.ingest(new int[] {generated[k - 1]});
            }
            generated[k] = argmax(logits);
            assertEquals(run.generatedIds()[k], generated[k], run.name() + " step " + k + " token");
            dev.top5 = Math.max(dev.top5, checkTop5(run.name() + " step " + k, run.top5().get(k), logits, tol));
        }
        assertArrayEquals(run.generatedIds(), generated, run.name());
    }

    private static float checkAll(Golden.Run run, float[] logits, float tol) {
        assertEquals(run.step0Logits().length, logits.length, run.name() + " vocabulary");
        float max = 0;
        for (int i = 0; i < logits.length; i++) {
            max = Math.max(max, Math.abs(logits[i] - run.step0Logits()[i]));
        }
        assertTrue(max <= tol, run.name() + ": step-0 logits deviate by up to " + max + ", expected at most " + tol);
        return max;
    }

    /** Top-1 exactly; ranks 2-5 by id set and logit (near-ties may swap, including at rank 5). */
    static float checkTop5(String what, float[][] golden, float[] logits, float tol) {
        float max = 0;
        java.util.Set<Integer> ids = new java.util.HashSet<>();
        for (float[] pair : golden) {
            int id = (int) pair[0];
            ids.add(id);
            float d = Math.abs(logits[id] - pair[1]);
            assertTrue(d <= tol, what + ": logit of " + id + " is " + logits[id] + ", expected " + pair[1]);
            max = Math.max(max, d);
        }
        float fifth = golden[golden.length - 1][1];
        for (int id : topK(logits, golden.length)) {
            assertTrue(ids.contains(id) || logits[id] <= fifth + tol,
                    what + ": token " + id + " (" + logits[id] + ") is in the top 5 but not in llama.cpp's " + ids);
        }
        return max;
    }

    static int argmax(float[] logits) {
        int best = 0;
        for (int i = 1; i < logits.length; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }

    static int[] topK(float[] logits, int k) {
        int[] top = new int[k];
        java.util.Arrays.fill(top, -1);
        for (int i = 0; i < logits.length; i++) {
            for (int j = 0; j < k; j++) {
                if (top[j] < 0 || logits[i] > logits[top[j]]) {
                    System.arraycopy(top, j, top, j + 1, k - j - 1);
                    top[j] = i;
                    break;
                }
            }
        }
        return top;
    }

    private static final class Deviation {
        float top5;
        float full;
    }
}
