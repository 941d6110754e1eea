package dev.parley.engine.gguf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.parley.engine.backend.ScalarBackend;
import dev.parley.engine.backend.VectorBackend;
import dev.parley.engine.tensor.ActivationFormat;
import dev.parley.engine.tensor.Activations;
import dev.parley.engine.tensor.Q8KActivations;
import dev.parley.engine.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Fuzzing of the K-quant tensors (Jazzer; docs/reliability.md).
 *
 * <p>{@link #decodeAnyBlocks}: the first bytes pick a type (Q4_K, Q5_K, Q6_K), a shape and a data length; the rest
 * are the blocks. A length that does not fit the shape must be refused with an {@link IllegalArgumentException}
 * that names the tensor and says what was expected; blocks that fit are decoded, their Q8_K products computed by
 * the scalar reference and the vector kernels, and where every value is finite the two must agree with each other
 * and with the float dot of the decoded values, within a tolerance measured on the two terms each weight is made
 * of (its quants' part and the part that goes through the activations' sums, see {@link #offsetPart}). Activations
 * come from the input too (any floats, NaN and infinities included): their Q8_K quants must stay in [-127, 127] with
 * consistent sums of 16.
 *
 * <p>{@link #kQuantTensorMetadata}: the bytes as a GGUF file whose tensors are wrapped and decoded as the model
 * loader does; only a {@link GgufException} is accepted, so a header the reader lets through whose tensor then
 * fails to wrap is a finding. Seeds: {@link KQuantSeeds}.
 */
class KQuantFuzzTest {

    private static final GgmlType[] TYPES = {GgmlType.Q4_K, GgmlType.Q5_K, GgmlType.Q6_K};
    private static final ScalarBackend SCALAR = new ScalarBackend();
    private static final VectorBackend VECTOR = new VectorBackend(1, 256);

    @FuzzTest(maxDuration = "30s")
    void decodeAnyBlocks(byte[] input) {
        if (input.length < 4) {
            return;
        }
        GgmlType type = TYPES[(input[0] & 0xff) % 3];
        int rows = 1 + (input[1] & 3);
        int cols = 256 * (1 + ((input[1] >> 2) & 1));
        boolean exact = (input[2] & 1) == 0;
        int tokens = 1 + ((input[2] >> 1) & 1);
        byte[] rest = Arrays.copyOfRange(input, 3, input.length);
        long need = type.byteSizeFor(cols) * rows;
        byte[] data = exact ? Arrays.copyOf(rest, (int) need) : rest;
        Tensor w;
        try {
            w = Tensor.of("fuzz.weight", type, MemorySegment.ofArray(data), rows, cols);
        } catch (IllegalArgumentException e) {
            assertTrue(data.length != need, "refused a tensor of the right size: " + e.getMessage());
            assertTrue(e.getMessage().contains("fuzz.weight") && e.getMessage().contains("expected " + need + " bytes"),
                    e.getMessage());
            return;
        }
        float[] x = activations(rest, tokens * cols);
        Activations act = new Activations(tokens, cols).set(x, tokens, cols);
        act.prepare(ActivationFormat.Q8_K);
        Q8KActivations k = act.q8k();
        for (int b = 0; b < tokens * cols / 256; b++) {
            for (int g = 0; g < 16; g++) {
                int sum = 0;
                for (int i = 256 * b + 16 * g; i < 256 * b + 16 * g + 16; i++) {
                    assertTrue(k.quants()[i] >= -127 && k.quants()[i] <= 127, "quant " + k.quants()[i]);
                    sum += k.quants()[i];
                }
                assertEquals(sum, k.bsums()[b * 16 + g]);
            }
        }
        float[] scalar = new float[tokens * rows];
        float[] vector = new float[tokens * rows];
        SCALAR.matmul(w, act, scalar);
        VECTOR.matmul(w, act, vector);
        Tensor offsets = Tensor.of("fuzz.offsets", type, MemorySegment.ofArray(offsetPart(type, data)), rows, cols);
        float[] row = new float[cols];
        float[] offset = new float[cols];
        for (int r = 0; r < rows; r++) {
            w.dequantizeRow(r, row, 0);
            offsets.dequantizeRow(r, offset, 0);
            for (int t = 0; t < tokens; t++) {
                double ref = 0;
                double magnitude = 0;
                for (int i = 0; i < cols; i++) {
                    double xi = k.quants()[t * cols + i] * (double) k.scales()[t * cols / 256 + i / 256];
                    ref += row[i] * xi;
                    magnitude += (Math.abs((double) row[i] - offset[i]) + Math.abs(offset[i])) * Math.abs(xi);
                }
                float s = scalar[t * rows + r];
                float v = vector[t * rows + r];
                if (Double.isFinite(magnitude) && magnitude < 1e30 && Float.isFinite(s)) {
                    double tol = 1e-5 * magnitude + 1e-30;
                    assertTrue(Math.abs(s - ref) <= tol, type + ": scalar " + s + ", dequantized " + ref);
                    assertTrue(Math.abs(s - v) <= tol, type + ": scalar " + s + ", vector " + v);
                }
            }
        }
    }

    /**
     * The blocks with only the part of each weight that the kernels take through the activations' sums: {@code -dmin
     * x min} for Q4_K and Q5_K (their {@code d} zeroed) and {@code -32 x d x scale} for Q6_K (its quants zeroed). The
     * kernels add that part and the quants' part as two large floats, so a weight of 0 can come out of two terms as
     * large as its scales; the tolerance is measured on both terms, not on the weight.
     */
    private static byte[] offsetPart(GgmlType type, byte[] data) {
        byte[] copy = data.clone();
        int block = (int) type.byteSizeFor(256);
        for (int b = 0; b + block <= copy.length; b += block) {
            if (type == GgmlType.Q6_K) {
                Arrays.fill(copy, b, b + 192, (byte) 0);
            } else {
                Arrays.fill(copy, b, b + 2, (byte) 0);
            }
        }
        return copy;
    }

    /** Floats from the input's bytes, repeated to {@code n} (a zero block when there are none). */
    private static float[] activations(byte[] bytes, int n) {
        float[] x = new float[n];
        int floats = bytes.length / 4;
        for (int i = 0; i < n && floats > 0; i++) {
            int j = (i % floats) * 4;
            int bits = (bytes[j] & 0xff) | (bytes[j + 1] & 0xff) << 8 | (bytes[j + 2] & 0xff) << 16 | bytes[j + 3] << 24;
            x[i] = Float.intBitsToFloat(bits);
        }
        return x;
    }

    @FuzzTest(maxDuration = "30s")
    void kQuantTensorMetadata(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("fuzz-k", ".gguf");
        try {
            Files.write(file, bytes);
            try (GgufFile gguf = GgufFile.open(file)) {
                for (GgufTensorInfo t : gguf.tensors()) {
                    long cols = t.dim(0);
                    long rows = t.elementCount() / cols;
                    if (rows > Integer.MAX_VALUE || cols > (1 << 16)) {
                        continue;
                    }
                    Tensor w = Tensor.of(t.name(), t.type(), gguf.tensorData(t), (int) rows, (int) cols);
                    float[] row = new float[(int) cols];
                    w.dequantizeRow(0, row, 0);
                    w.dequantizeRow((int) rows - 1, row, 0);
                }
            }
        } catch (GgufException expected) {
            // refused with a message
        } finally {
            Files.delete(file);
        }
    }
}
