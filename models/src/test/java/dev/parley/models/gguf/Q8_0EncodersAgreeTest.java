package dev.parley.models.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parley.engine.backend.BackendKind;
import dev.parley.engine.gguf.GgmlType;
import dev.parley.engine.gguf.GgufFile;
import dev.parley.engine.gguf.GgufTensorInfo;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.model.ModelOptions;
import dev.parley.engine.model.WeightFormat;
import dev.parley.engine.tensor.Q8_0Quantizer;
import dev.parley.engine.tensor.Tensor;
import dev.parley.models.synth.ModelShape;
import dev.parley.models.synth.Synth;
import dev.parley.models.synth.SynthSpec;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's quantize-on-load Q8_0 routine and the GGUF writer's encoder both claim ggml's reference algorithm:
 * they must agree byte for byte, on awkward values and on every matrix of a synthetic F16 and BF16 model.
 */
class Q8_0EncodersAgreeTest {

    @Test
    void bothEncodersGiveTheSameBytesOnAwkwardValues() {
        Random rnd = new Random(42);
        float[] x = new float[32 * 3000];
        for (int i = 0; i < x.length; i++) {
            int block = i / 32;
            x[i] = switch (block % 6) {
                case 0 -> (float) rnd.nextGaussian();
                case 1 -> (float) (rnd.nextGaussian() * 1e-6);          // FP16 scale underflows to subnormal
                case 2 -> (rnd.nextInt(255) - 127) * 0.5f;              // many exact halves after scaling
                case 3 -> 0f;                                           // all-zero block
                case 4 -> (float) (rnd.nextGaussian() * 1e4);
                default -> Float.intBitsToFloat(rnd.nextInt()) * 0 + (float) rnd.nextInt(1000) / 7;
            };
        }
        assertArrayEquals(TensorEncoder.encode(GgmlType.Q8_0, x), Q8_0Quantizer.quantize(x));
    }

    @Test
    void quantizeOnLoadOfASynthModelEqualsTheWriterEncodingOfItsValues(@TempDir Path dir) throws Exception {
        for (GgmlType type : new GgmlType[] {GgmlType.F16, GgmlType.BF16}) {
            Path file = new Synth(2).write(SynthSpec.of(ModelShape.builtIn("tiny"), type, 9),
                    dir.resolve("tiny-" + type + ".gguf")).path();
            ModelOptions int8 = new ModelOptions(BackendKind.SCALAR, 2).withWeights(WeightFormat.INT8)
                    .withKeepEmbeddings(false);
            int checked = 0;
            try (LlamaModel m = LlamaModel.load(file, int8); GgufFile g = GgufFile.open(file)) {
                for (Tensor t : m.weights().distinctMatrices()) {
                    GgufTensorInfo info = g.tensor(t.name());
                    if (info.type() != type) {
                        continue;
                    }
                    float[] values = TensorEncoder.decode(type, g.tensorData(info), t.rows() * t.cols());
                    assertEquals(GgmlType.Q8_0, t.type(), t.name());
                    assertArrayEquals(TensorEncoder.encode(GgmlType.Q8_0, values), t.data().toArray(ValueLayout.JAVA_BYTE),
                            type + " " + t.name());
                    checked++;
                }
            }
            assertTrue(checked >= 8, "checked " + checked + " " + type + " matrices");
        }
    }
}
