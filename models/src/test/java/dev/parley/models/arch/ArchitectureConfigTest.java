package dev.parley.models.arch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.model.Architecture;
import dev.parley.engine.model.Configuration;
import dev.parley.engine.model.InferenceSession;
import dev.parley.engine.model.LayerWeights;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the engine reads from each new architecture's metadata and tensors, on synth models our writer makes (no
 * llama.cpp needed; PeerParityTest checks the numbers against it): Gemma 3's window, default pattern, local RoPE base,
 * scaled embedding and linear RoPE scale; an explicit pattern key; Qwen3's head size from key_length; Phi-3's fused
 * tensors cut into row ranges and its LongRoPE factors.
 */
class ArchitectureConfigTest {

    @TempDir
    Path dir;

    private Path synth(String arch, String shape, String name) throws Exception {
        Path out = dir.resolve(name);
        new Synth(1).write(new SynthSpec(arch, ModelShape.parse(shape), GgmlType.F32, null, 5, null), out);
        return out;
    }

    @Test
    void gemma3ReadsItsWindowDefaultPatternLocalBaseAndScales() throws Exception {
        try (LlamaModel m = LlamaModel.load(synth("gemma3", "tiny-gemma3", "g.gguf"),
                new ModelOptions(BackendKind.SCALAR, 1))) {
            Configuration c = m.config();
            assertEquals(Architecture.GEMMA3, c.architecture());
            assertEquals(8, c.variant().slidingWindow());
            assertEquals(6, c.variant().windowPattern(), "no sliding_window_pattern key: llama.cpp's 6");
            for (int l = 0; l < 5; l++) {
                assertEquals(8, c.window(l), "layer " + l + " is local");
            }
            assertEquals(Integer.MAX_VALUE, c.window(5), "layer 5 is global");
            assertEquals(10_000f, c.variant().localRopeBase(), "no freq_base_swa key: 10000");
            assertEquals(1_000_000f, c.ropeFreqBase());
            assertEquals(1f / 8, c.ropeFreqScale(), "linear scaling x8 (global layers)");
            assertEquals(8f, c.variant().embeddingScale(), "sqrt(64)");
            assertEquals(0.25f, c.attentionScale(), "1 / sqrt(key_length 16)");
            assertEquals(0f, c.variant().finalSoftcap());
            LayerWeights l0 = m.weights().layers().get(0);
            assertNotNull(l0.qNorm());
            assertNotNull(l0.postAttnNorm());
            assertNotNull(l0.postFfnNorm());
            assertEquals(16, l0.qNorm().length);
            assertTrue(c.tiedOutput());
        }
    }

    @Test
    void anExplicitPatternKeyIsReadAndChangesTheLogits() throws Exception {
        Path byDefault = synth("gemma3", "tiny-gemma3", "g6.gguf");
        Path everyOther = synth("gemma3", "tiny-gemma3:pattern=2", "g2.gguf");
        try (LlamaModel a = LlamaModel.load(byDefault, new ModelOptions(BackendKind.SCALAR, 1));
             LlamaModel b = LlamaModel.load(everyOther, new ModelOptions(BackendKind.SCALAR, 1))) {
            Configuration c = b.config();
            assertEquals(2, c.variant().windowPattern());
            for (int l = 0; l < 6; l++) {
                assertEquals(l % 2 == 0, c.variant().local(l), "layer " + l);
            }
            int[] prompt = new int[20];
            for (int i = 0; i < prompt.length; i++) {
                prompt[i] = 3 + i * 37 % 500;
            }
            try (InferenceSession sa = a.newSession(64); InferenceSession sb = b.newSession(64)) {
                float[] la = sa.ingest(prompt);
                float[] lb = sb.ingest(prompt);
                double worst = 0;
                for (int i = 0; i < la.length; i++) {
                    worst = Math.max(worst, Math.abs(la[i] - lb[i]));
                }
                assertTrue(worst > 0.01, "pattern 2 instead of 6 should move the logits but they moved by " + worst);
            }
        }
    }

    @Test
    void qwen3TakesItsHeadSizeFromKeyLength() throws Exception {
        try (LlamaModel m = LlamaModel.load(synth("qwen3", "tiny-qwen3", "q.gguf"),
                new ModelOptions(BackendKind.SCALAR, 1))) {
            Configuration c = m.config();
            assertEquals(32, c.headSize(), "key_length, not dim / heads = 16");
            assertEquals(128, c.qDim());
            assertEquals(0, c.variant().slidingWindow());
            LayerWeights l0 = m.weights().layers().get(0);
            assertEquals(32, l0.qNorm().length);
            assertNull(l0.bq(), "no biases");
            assertNull(l0.postAttnNorm());
        }
    }

    @Test
    void phi3CutsItsFusedTensorsIntoRowRangesAndUsesTheShortRopeFactors() throws Exception {
        try (LlamaModel m = LlamaModel.load(synth("phi3", "tiny-phi3", "p.gguf"),
                new ModelOptions(BackendKind.SCALAR, 1))) {
            Configuration c = m.config();
            LayerWeights l0 = m.weights().layers().get(0);
            assertEquals(c.qDim(), l0.wq().rows());
            assertEquals(c.kvDim(), l0.wk().rows());
            assertEquals(c.ffnDim(), l0.wGate().rows());
            assertEquals(c.ffnDim(), l0.wUp().rows());
            long gate = l0.wGate().data().address();
            assertEquals(gate + (long) c.ffnDim() * l0.wGate().rowBytes(), l0.wUp().data().address(),
                    "up follows gate in the one ffn_up tensor");
            assertEquals(l0.wq().data().address() + (long) c.qDim() * l0.wq().rowBytes(), l0.wk().data().address());
            assertEquals("rope_factors_short.weight", c.variant().ropeFactorsTensor());
            float[] factors = m.weights().ropeFreqFactors();
            assertEquals(c.ropeDims() / 2, factors.length);
            assertEquals(1f, factors[0]);
            assertEquals(1.5f, factors[factors.length - 1], 1e-6f, "the short set (the long one ends at 8)");
            assertFalse(c.architecture().runsOnCuda(), "phi3 stays on the CPU");
            assertEquals(1.19f, c.variant().ropeAttnFactor(), "rope.scaling.attn_factor");
        }
    }
}
